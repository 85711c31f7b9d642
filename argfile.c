/*
 * @FILE arguments: before "--", an argument @FILE is replaced by the
 * arguments in FILE, one per line. Blank lines and lines starting with '#'
 * are skipped; nothing is quoted or split, so a path with spaces is one
 * line; nothing nests. A policy in a file has no argv size limit.
 *
 * The expanded argv lives in memory mapped here and owned by main, like the
 * grant list; a command line without @ costs one scan of its options.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argfile.h"
#include "guard.h"
#include "out.h"

struct text {
	char *buf;
	size_t len;
};

/* Far beyond any policy (a million grants take some 40 MiB), and a stop for
 * a file that never ends, such as a FIFO fed by yes(1). */
#define TEXT_MAX (256UL << 20)

/* A NUL byte cannot be part of an argument: refused as it arrives, so
 * @/dev/zero fails at once. */
static void check_nul(const struct text *t, size_t from, const char *file)
{
	const char *nul = memchr(t->buf + from, '\0', t->len - from), *s;
	unsigned line = 1;

	if (!nul)
		return;
	for (s = t->buf; s < nul; s++)
		line += *s == '\n';
	die("@%s line %u: a NUL byte cannot be part of an argument", file, line);
}

/* The whole file, NUL-terminated; a pipe (@/dev/stdin) works too. A file
 * someone else could change is refused before a byte of it is read. */
static struct text slurp(struct request *r, const char *file)
{
	int fd = openat(AT_FDCWD, file, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	struct text t = {NULL, 0};
	size_t cap;
	struct stat st;
	ssize_t n;

	if (fd < 0 || fstat(fd, &st))
		die_errno("cannot open the argument file @%s", file);
	guard_policy(r, file, fd, &st);
	cap = (S_ISREG(st.st_mode) ? (size_t)st.st_size : 0) + 4096;
	t.buf = mapped(cap, "an argument file's text");
	for (;;) {
		n = read(fd, t.buf + t.len, cap - 1 - t.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("cannot read the argument file @%s", file);
		if (n == 0)
			break;
		t.len += (size_t)n;
		check_nul(&t, t.len - (size_t)n, file);
		if (t.len >= TEXT_MAX)
			die("the argument file @%s is larger than %lu MiB", file, TEXT_MAX >> 20);
		if (t.len == cap - 1) {
			t.buf = mremap(t.buf, cap, cap * 2, MREMAP_MAYMOVE);
			if (t.buf == MAP_FAILED)
				die_errno("cannot read the argument file @%s", file);
			cap *= 2;
		}
	}
	if (close(fd))
		die_errno("cannot close the argument file @%s", file);
	return t;
}

/* Blank lines and comments carry no argument. */
static int skipped(const char *line)
{
	return line[strspn(line, " \t")] == '\0' || line[0] == '#';
}

/* Check every line of T and cut it in place (the newline becomes its
 * terminator); returns how many arguments it holds. */
static int cut_lines(struct text *t, const char *file)
{
	char *line = t->buf, *end = t->buf + t->len;
	unsigned number = 0;
	int n = 0;

	for (; line < end; line++) {
		char *nl = memchr(line, '\n', (size_t)(end - line));

		number++;
		nl = nl ? nl : end; /* the last line needs no newline */
		*nl = '\0';
		if (line[0] == '@')
			die("@%s line %u: '%s': argument files do not nest (write a path "
			    "starting with @ as ./%s)",
			    file, number, line, line);
		if (strcmp(line, "--") == 0)
			die("@%s line %u: '--' cannot be in an argument file: it ends the "
			    "options on the command line",
			    file, number);
		n += !skipped(line);
		line = nl;
	}
	return n;
}

/* Room for one " (@FILE line N)" note: the file name and the number. */
static size_t note_size(const char *file)
{
	return strlen(file) + sizeof " (@ line 4294967295)";
}

/*
 * The arguments of a file cut_lines checked, each with a note saying where
 * it came from, written at *notes for the parser's error messages.
 */
static int take_lines(const struct text *t, const char *file, char **args, const char **from,
		      char **notes)
{
	char *line = t->buf, *end = t->buf + t->len;
	struct out note = {.fd = -1};
	unsigned number = 0;
	int n = 0;

	for (; line < end; line += strlen(line) + 1) {
		number++;
		if (skipped(line))
			continue;
		note.len = 0;
		outf(&note, " (@%s line %u)", file, number);
		memcpy(*notes, note.buf, note.len);
		(*notes)[note.len] = '\0';
		args[n] = line;
		from[n++] = *notes;
		*notes += note.len + 1;
	}
	return n;
}

/*
 * Replace every @FILE before the first "--" by the arguments it holds.
 * from[i] says where argument i came from ("" for the command line);
 * without any @FILE, argv is left as it is and *from stays NULL.
 */
void expand_argfiles(struct request *r, int *argc, char ***argv, const char ***from)
{
	char **in = *argv, **out, *notes;
	struct text *texts = NULL;
	size_t note_room = 0;
	int i, n, lines, total = *argc;

	*from = NULL;
	for (i = 1; i < *argc && strcmp(in[i], "--") != 0; i++) {
		if (in[i][0] != '@')
			continue;
		if (in[i][1] == '\0')
			die("argument '@' names no file (write @FILE, and a path starting "
			    "with @ as ./@...)");
		if (!texts)
			texts = mapped((size_t)*argc * sizeof *texts, "the argument files");
		texts[i] = slurp(r, in[i] + 1);
		lines = cut_lines(&texts[i], in[i] + 1);
		note_room += (size_t)lines * note_size(in[i] + 1);
		total += lines - 1;
	}
	if (!texts)
		return;
	out = mapped((size_t)(total + 1) * 2 * sizeof *out + note_room, "the expanded arguments");
	*from = (const char **)(out + total + 1);
	notes = (char *)(*from + total + 1);
	for (i = 0, n = 0; i < *argc; i++) {
		if (texts[i].buf) {
			n += take_lines(&texts[i], in[i] + 1, out + n, *from + n, &notes);
			continue;
		}
		out[n] = in[i];
		(*from)[n++] = "";
	}
	out[n] = NULL;
	*argc = n;
	*argv = out;
}
