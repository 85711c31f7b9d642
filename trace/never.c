/*
 * What is never advised as a grant, and why: a command that can choose
 * its denials must not choose its next sandbox by them. --explain says
 * "not advised: WHY" where the grant would be, the JSON record carries
 * the why instead of an allow, and --learn writes a comment. The first
 * row that matches gives the reason.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fd.h"
#include "never.h"

enum match {
	EXACT, /* the path itself */
	TREE,  /* the path or anything beneath it */
	PID,   /* /proc/PID and beneath it */
	HOME,  /* $HOME or a directory above it */
	BLOCK, /* a block device, wherever it is */
};

enum { ANY = 0, WRITE = 1, ROOT_WRITE = 2 };

static const struct {
	const char *path;
	unsigned char match, when;
	const char *why;
} never[] = {
	{"/", EXACT, ANY, "a grant on / is one on every file"},
	/* Reading /proc/PID can be granted only as --ro /proc (no grant names
	 * the next run's pids); Landlock's own ptrace check keeps other domains'
	 * environ and mem closed. Writing there never. */
	{"/proc", PID, WRITE,
	 "/proc/PID is one process's (the next run's are others) and a write there changes how "
	 "the kernel treats it"},
	{"/proc/sys", TREE, WRITE,
	 "/proc/sys is the kernel's settings (core_pattern runs a program as root)"},
	{"/proc/sysrq-trigger", EXACT, WRITE, "it reboots or crashes the machine"},
	{"/proc", TREE, WRITE, "a write in /proc changes the kernel's or a process's state"},
	{"/sys", EXACT, ANY, "/sys holds every device's and the kernel's settings"},
	{"/sys/fs/cgroup", TREE, WRITE, "a cgroup write moves processes or lifts their limits"},
	{"/sys", TREE, WRITE, "a write under /sys changes a device or the kernel"},
	{"/dev", EXACT, ANY, "/dev holds every device"},
	{"", BLOCK, ANY, "a block device is a whole disk, past every file's permissions"},
	{"", HOME, ANY, "$HOME, and each directory above it, holds every file of the user"},
	{"/etc", TREE, ROOT_WRITE, "root's configuration, which init and every login trust"},
	{"/boot", TREE, ROOT_WRITE, "the kernel and the boot loader read it"},
	{"/usr", TREE, ROOT_WRITE, "root's programs, which everyone runs"},
	{"/bin", TREE, ROOT_WRITE, "root's programs, which everyone runs"},
	{"/sbin", TREE, ROOT_WRITE, "root's programs, which everyone runs"},
	{"/lib", TREE, ROOT_WRITE, "root's libraries and kernel modules"},
	{"/lib32", TREE, ROOT_WRITE, "root's libraries"},
	{"/lib64", TREE, ROOT_WRITE, "root's libraries and the dynamic loader"},
	{"/libx32", TREE, ROOT_WRITE, "root's libraries"},
	{"/var/lib", TREE, ROOT_WRITE, "root's services keep their state there"},
	{"/root", TREE, ROOT_WRITE, "root's home: its shell and ssh trust it"},
};

/* --keep-caps keeps every capability the caller holds, not the one a call
 * was refused: root stays root, Landlock its only bound. */
const char never_keep_caps[] =
	"a capability the launcher drops, which no grant gives back; --keep-caps would keep it "
	"and every other capability the caller holds (root stays root)";

void never_start(struct never *nv)
{
	const char *home = getenv("HOME");
	int fd = home && home[0] == '/' ? openat(AT_FDCWD, home, O_PATH | O_DIRECTORY | O_CLOEXEC)
					: -1;

	nv->root = geteuid() == 0;
	nv->home[0] = '\0';
	if (fd < 0)
		return;
	if (path_of_fd(fd, nv->home) <= 1)
		nv->home[0] = '\0'; /* "/" as a home: the row for / has it */
	close(fd);
}

static int matches(const struct never *nv, unsigned match, const char *row, const char *path)
{
	struct stat st;

	switch (match) {
	case EXACT: return strcmp(path, row) == 0;
	case TREE: return within(path, row);
	case PID: return within(path, row) && path[5] == '/' && path[6] >= '0' && path[6] <= '9';
	case HOME: return nv->home[0] && within(nv->home, path);
	default: return stat(path, &st) == 0 && S_ISBLK(st.st_mode);
	}
}

const char *never_why(const struct never *nv, const char *path, int write)
{
	size_t i;

	for (i = 0; i < sizeof never / sizeof never[0]; i++)
		if ((never[i].when == ANY || (write && (never[i].when == WRITE || nv->root))) &&
		    matches(nv, never[i].match, never[i].path, path))
			return never[i].why;
	return NULL;
}
