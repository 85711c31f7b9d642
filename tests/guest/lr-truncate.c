/* lr-truncate PATH: truncate(2) PATH to 0 bytes by path, without opening it.
 * Busybox's truncate opens the file for writing, which write_file denies on every
 * ABI; only the path call shows the ABI 2 gap (no truncate right before ABI 3). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: lr-truncate PATH\n");
		return 2;
	}
	if (truncate(argv[1], 0) != 0) {
		fprintf(stderr, "lr-truncate: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
