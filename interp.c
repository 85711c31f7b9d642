/*
 * What else the kernel opens to execute a file: the interpreter of a #!
 * script, or the ELF interpreter (the dynamic linker) a binary names in
 * PT_INTERP. The 126 and 127 messages name the one that stops an exec;
 * --explain checks them when an exec fails; --learn grants them.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fd.h"
#include "interp.h"
#include "out.h"

/* The kernel reads at most this much of a #! line (BINPRM_BUF_SIZE). */
#define SHEBANG_MAX 256

/* The interpreter a #! line names, read only from the N bytes read: it ends
 * at a space, a tab, a newline or a NUL, or where a short file ends (the
 * kernel's buffer is zeroed past it); one that fills the whole buffer is
 * cut, and the kernel refuses it (ENOEXEC). */
static int shebang(const char *buf, size_t n, char *out, size_t size)
{
	size_t start = 2, len = 0;

	while (start < n && (buf[start] == ' ' || buf[start] == '\t'))
		start++;
	while (start + len < n && buf[start + len] != ' ' && buf[start + len] != '\t' &&
	       buf[start + len] != '\n' && buf[start + len] != '\0')
		len++;
	if (len == 0 || len >= size || (start + len == n && n == SHEBANG_MAX))
		return 0;
	memcpy(out, buf + start, len);
	out[len] = '\0';
	return 1;
}

/* PT_INTERP of a 32- or 64-bit ELF file: the header fields this needs sit
 * at the same offsets in both classes until e_phoff. */
static int elf_interp(int fd, const unsigned char *buf, size_t n, char *out, size_t size)
{
	int wide = buf[EI_CLASS] == ELFCLASS64;
	const Elf64_Ehdr *e64 = (const void *)buf;
	const Elf32_Ehdr *e32 = (const void *)buf;
	uint64_t phoff;
	unsigned i, phnum, phsize = wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);

	/* the header's fields only from bytes the file has */
	if (n < (wide ? sizeof *e64 : sizeof *e32) ||
	    (buf[EI_CLASS] != ELFCLASS64 && buf[EI_CLASS] != ELFCLASS32))
		return 0;
	phoff = wide ? e64->e_phoff : e32->e_phoff;
	phnum = wide ? e64->e_phnum : e32->e_phnum;
	for (i = 0; i < phnum && i < 256; i++) {
		Elf64_Phdr ph64;
		Elf32_Phdr ph32;
		void *ph = wide ? (void *)&ph64 : (void *)&ph32;
		uint64_t off, len;

		if (pread(fd, ph, phsize, (off_t)(phoff + (uint64_t)i * phsize)) != (ssize_t)phsize)
			return 0;
		if ((wide ? ph64.p_type : ph32.p_type) != PT_INTERP)
			continue;
		off = wide ? ph64.p_offset : ph32.p_offset;
		len = wide ? ph64.p_filesz : ph32.p_filesz;
		if (len < 2 || len > size || pread(fd, out, len, (off_t)off) != (ssize_t)len ||
		    out[len - 1] != '\0')
			return 0;
		return 1;
	}
	return 0;
}

/*
 * A file named by the command, open for reading only if it is a regular
 * file: found with O_PATH, which opens nothing, checked with fstat, and
 * opened again through that descriptor (/proc/self/fd/N), so it cannot be
 * swapped meanwhile. A FIFO cannot hang the launcher nor a device be
 * opened by it. Where /proc is out of reach (the sandboxed plain run) and
 * BY_PATH says the caller has no more power than the command, it is
 * opened again by path, non-blocking, and must be the same file; the
 * tracer, which is not confined, never opens by path: a directory on it
 * swapped for a symlink would have it open a device.
 */
int open_regular(const char *path, int by_path)
{
	char link[40], num[24];
	struct stat st, again;
	int fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC), file, err;

	if (fd < 0)
		return -1;
	/* ENOEXEC: not for the sandbox to allow, as the kernel's exec says too */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = ENOEXEC;
		return -1;
	}
	join(link, sizeof link, "/proc/self/fd/", decimal(fd, num), NULL);
	file = openat(AT_FDCWD, link, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (file < 0 && errno != ENOENT && errno != EACCES)
		goto out;
	if (file < 0 && !by_path)
		goto out;
	if (file < 0)
		file = openat(AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (file >= 0 &&
	    (fstat(file, &again) || again.st_dev != st.st_dev || again.st_ino != st.st_ino)) {
		close(file);
		file = -1;
		errno = ENOEXEC;
	}
out:
	err = errno;
	close(fd);
	errno = err;
	return file;
}

/* The interpreter FD's file asks for, in OUT: INTERP_SHEBANG or INTERP_ELF;
 * none or unreadable: 0. */
int read_interpreter(int fd, char *out, size_t size)
{
	unsigned char buf[SHEBANG_MAX];
	ssize_t n = pread(fd, buf, sizeof buf, 0);

	if (n >= 2 && buf[0] == '#' && buf[1] == '!')
		return shebang((const char *)buf, (size_t)n, out, size) ? INTERP_SHEBANG : 0;
	if (n >= EI_NIDENT && memcmp(buf, ELFMAG, SELFMAG) == 0)
		return elf_interp(fd, buf, (size_t)n, out, size) ? INTERP_ELF : 0;
	return 0;
}

/* The file execvp ran into first for NAME: NAME when it has a slash, else
 * the first PATH entry that exists (musl's default when PATH is unset). */
const char *first_in_path(const char *name, char *buf)
{
	const char *dirs = getenv("PATH"), *dir;
	size_t len;

	if (strchr(name, '/'))
		return name;
	for (dir = dirs ? dirs : "/usr/local/bin:/bin:/usr/bin"; *dir; dir += len + !!dir[len]) {
		len = strcspn(dir, ":");
		copy_span(buf, PATH_MAX, dir, len);
		join(buf + strlen(buf), PATH_MAX - strlen(buf), len ? "/" : "", name, NULL);
		if (access(buf, F_OK) == 0)
			return buf;
	}
	return name;
}

/*
 * Why an exec of FILE failed, in the sandbox, as the kernel goes: FILE, its
 * #! interpreter, that one's ELF interpreter, each opened for reading and
 * executing. access(2) asks the mode bits alone (Landlock does not check
 * it): a file they allow that cannot be opened is the sandbox's doing.
 * STOP_DENIED or STOP_MISSING with *ROLE what the file is to FILE (NULL:
 * FILE itself) and PATH the file (CANON its canonical path); 0 when no file
 * of the chain is to blame.
 */
int exec_stop(const char *file, const char **role, char *path, char *canon)
{
	static const char *const roles[] = {NULL, "its #! interpreter", "its ELF interpreter"};
	int fd, kind = 0, depth, n;

	join(path, PATH_MAX, file, NULL);
	for (depth = 0; depth < 3; depth++) {
		*role = roles[kind];
		if (kind && access(path, F_OK))
			return STOP_MISSING;
		fd = open_regular(path, 1); /* the plain run: confined as the command */
		if (fd < 0)
			break;
		kind = read_interpreter(fd, canon, PATH_MAX);
		close(fd);
		if (!kind)
			return 0;
		join(path, PATH_MAX, canon, NULL);
	}
	if (depth == 3 || errno != EACCES || access(path, R_OK | X_OK))
		return 0;
	fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	n = fd < 0 ? -1 : path_of_fd(fd, canon);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		copy_span(canon, PATH_MAX, path, strlen(path));
	return STOP_DENIED;
}
