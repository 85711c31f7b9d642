/*
 * Output: a small buffered writer with printf-style formats, the one way
 * to fail (one "landlock-run: " line, then exit), and the key/value writer
 * behind every report, so text and JSON carry the same keys by design.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "abi.h"
#include "out.h"
#include "policy.h"
#include "status.h"

/* Room a string builder keeps after a %s argument, so that what follows a
 * path (the reason, above all) stays on the line however long the path. */
#define TAIL_ROOM 256

/*
 * The state the error path needs: the status descriptor, which main sets
 * once (status_start); executed: COMMAND has run, so a failure from now on
 * is the launcher's own after the fact; ender: this process writes the end
 * record when it fails (L; S and COMMAND's process leave it to L); and what
 * a failure must do before the launcher exits (at_failure: the supervisor
 * ends the tree); and the caller's SIGPIPE disposition, once the launcher
 * has set its own (hold_sigpipe).
 */
static struct {
	int fd;
	int executed, ender;
	void (*cleanup)(void *ctx, int code); /* at_failure */
	void *ctx;
	int pipe_held;
	struct sigaction caller_pipe;
} status = {.fd = -1};

static void put(struct out *o, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = sizeof o->buf - o->len;

		if (room == 0 && o->fd < 0)
			return;
		if (room == 0) {
			out_flush(o);
			continue;
		}
		room = room < n ? room : n;
		memcpy(o->buf + o->len, s, room);
		o->len += room;
		s += room;
		n -= room;
	}
}

/* The length of the valid UTF-8 sequence at S (at most N bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : lo;
	hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : hi;
	for (i = 1; i < len; i++, lo = 0x80, hi = 0xbf)
		if (i >= n || s[i] < lo || s[i] > hi)
			return 0;
	return len;
}

#define NOT_UTF8 UINT32_MAX /* a byte that starts no valid UTF-8 sequence */

/* The next character at S (N bytes left) in *CP, and its length: 1 for a
 * byte of invalid UTF-8, which reads as NOT_UTF8. */
static size_t next_char(const unsigned char *s, size_t n, uint32_t *cp)
{
	static const unsigned char lead[] = {0x7f, 0x1f, 0x0f, 0x07};
	size_t len = utf8_len(s, n), i;

	if (!len) {
		*cp = NOT_UTF8;
		return 1;
	}
	*cp = s[0] & lead[len - 1];
	for (i = 1; i < len; i++)
		*cp = *cp << 6 | (s[i] & 0x3f);
	return len;
}

/*
 * What a reader could take for something other than the text it is in:
 * the C0 and C1 controls and DEL (a terminal acts on them: U+009B opens a
 * control sequence as ESC [ does; U+0085 ends a line), the line and
 * paragraph separators (a consumer splitting lines splits there too), and
 * the bidirectional controls, which reorder what a terminal shows. Each is
 * escaped wherever outside text is written, and so is invalid UTF-8.
 */
static const struct {
	uint32_t lo, hi;
} unsafe_chars[] = {
	{0x00, 0x1f},	  /* C0 */
	{0x7f, 0x9f},	  /* DEL, C1 */
	{0x061c, 0x061c}, /* ARABIC LETTER MARK */
	{0x200e, 0x200f}, /* LEFT-TO-RIGHT, RIGHT-TO-LEFT MARK */
	{0x2028, 0x202e}, /* LINE, PARAGRAPH SEPARATOR; the embeddings and overrides */
	{0x2066, 0x2069}, /* the isolates */
	{NOT_UTF8, NOT_UTF8},
};

static int unsafe(uint32_t cp)
{
	size_t i;

	for (i = 0; i < sizeof unsafe_chars / sizeof unsafe_chars[0]; i++)
		if (cp >= unsafe_chars[i].lo && cp <= unsafe_chars[i].hi)
			return 1;
	return 0;
}

/* N bytes of outside text at S, in place, each unsafe character made '?';
 * returns the length left. */
static size_t censor(char *s, size_t n)
{
	size_t i, len, kept = 0;
	uint32_t cp;

	for (i = 0; i < n; i += len) {
		len = next_char((const unsigned char *)s + i, n - i, &cp);
		if (unsafe(cp)) {
			s[kept++] = '?';
			continue;
		}
		memmove(s + kept, s + i, len);
		kept += len;
	}
	return kept;
}

/* A path or other outside text: one line, whatever bytes it holds. */
static void put_arg(struct out *o, const char *s, size_t n)
{
	size_t start = o->len;
	/* What follows a cut argument (the reason) may use the room it left. */
	size_t limit = sizeof o->buf - (o->len < sizeof o->buf - TAIL_ROOM ? TAIL_ROOM : 1);

	if (o->fd < 0 && o->len + n > limit) {
		n = o->len + 3 < limit ? limit - o->len - 3 : 0;
		put(o, s, n);
		put(o, "...", 3);
	} else {
		put(o, s, n);
	}
	if (o->escape && o->fd < 0)
		o->len = start + censor(o->buf + start, o->len - start);
}

/* A stream cannot escape in its buffer after a flush: character by character. */
static void put_escaped(struct out *o, const char *s, size_t n)
{
	size_t i, len;
	uint32_t cp;

	for (i = 0; i < n; i += len) {
		len = next_char((const unsigned char *)s + i, n - i, &cp);
		put(o, unsafe(cp) ? "?" : s + i, unsafe(cp) ? 1 : len);
	}
}

static void put_hex_escape(struct out *o, const char *prefix, unsigned char c)
{
	char hex[2] = {"0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};

	put(o, prefix, strlen(prefix));
	put(o, hex, 2);
}

/*
 * Outside text where every byte must survive: ESCAPE_C writes what is not
 * safe, printable UTF-8 as bash's $'...' reads it (\n, \t, \\, \xHH for
 * each byte, so a C1 control or a bidi one too), so a path can be pasted
 * back; ESCAPE_JSON as a JSON string, an unsafe character as \uXXXX and a
 * byte of invalid UTF-8 as \udcHH (Python's surrogateescape), so the exact
 * bytes can be recovered.
 */
static void put_quoted(struct out *o, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	int json = o->escape == ESCAPE_JSON;
	size_t i, j, len;
	uint32_t cp;

	for (i = 0; i < n; i += len) {
		unsigned char c = u[i];

		len = next_char(u + i, n - i, &cp);
		if (!unsafe(cp) && c != '\\' && !(json && c == '"')) {
			put(o, s + i, len);
			continue;
		}
		if (c == '\n' || c == '\t' || c == '\\' || c == '"') {
			put(o,
			    c == '\n'	? "\\n"
			    : c == '\t' ? "\\t"
			    : c == '\\' ? "\\\\"
					: "\\\"",
			    2);
		} else if (json && cp != NOT_UTF8) {
			put_hex_escape(o, "\\u", (unsigned char)(cp >> 8));
			put_hex_escape(o, "", (unsigned char)cp);
		} else {
			for (j = 0; j < len; j++)
				put_hex_escape(o, !json ? "\\x" : "\\udc", u[i + j]);
		}
	}
}

/* N in BASE, written backwards from END; returns where it starts. */
static char *digits(char *end, unsigned long long n, unsigned base, int negative)
{
	do
		*--end = "0123456789abcdef"[n % base];
	while ((n /= base) > 0);
	if (negative)
		*--end = '-';
	return end;
}

static void put_number(struct out *o, unsigned long long n, unsigned base, int negative)
{
	char buf[24], *start = digits(buf + sizeof buf, n, base, negative);

	put(o, start, (size_t)(buf + sizeof buf - start));
}

static void put_integer(struct out *o, char conv, char size, va_list *ap)
{
	unsigned long long n;
	long long v;

	if (conv == 'd') {
		v = size == 'l'	  ? va_arg(*ap, long)
		    : size == 'z' ? va_arg(*ap, ssize_t)
				  : va_arg(*ap, int);
		put_number(o, v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v, 10, v < 0);
		return;
	}
	n = size == 'l'	  ? va_arg(*ap, unsigned long)
	    : size == 'z' ? va_arg(*ap, size_t)
			  : va_arg(*ap, unsigned);
	put_number(o, n, conv == 'x' ? 16 : conv == 'o' ? 8 : 10, 0);
}

static void put_string(struct out *o, const char *s, int precision)
{
	size_t n = precision >= 0 ? strnlen(s, (size_t)precision) : strlen(s);

	if (o->escape >= ESCAPE_C)
		put_quoted(o, s, n);
	else if (o->escape && o->fd >= 0)
		put_escaped(o, s, n);
	else
		put_arg(o, s, n);
}

static void voutf(struct out *o, const char *fmt, va_list *ap)
{
	while (*fmt) {
		size_t len = strcspn(fmt, "%");
		int precision = -1;
		char size = 0;

		put(o, fmt, len);
		fmt += len;
		if (!*fmt++)
			return;
		if (fmt[0] == '.' && fmt[1] == '*') {
			precision = va_arg(*ap, int);
			fmt += 2;
		}
		if (*fmt == 'l' || *fmt == 'z')
			size = *fmt++;
		switch (*fmt) {
		case 's': put_string(o, va_arg(*ap, const char *), precision); break;
		case 'c': {
			char c = (char)va_arg(*ap, int);
			put(o, &c, 1);
			break;
		}
		case 'd':
		case 'o':
		case 'u':
		case 'x': put_integer(o, *fmt, size, ap); break;
		default: put(o, fmt, 1);
		}
		fmt++;
	}
}

void out_start(struct out *o, int fd, int escape)
{
	o->fd = fd;
	o->escape = escape;
	o->failed = 0;
	o->len = 0;
}

void outf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	voutf(o, fmt, &ap);
	va_end(ap);
}

/*
 * A closed stderr pipe must not kill the launcher before it can exec the
 * command or say why it cannot: SIGPIPE is ignored, so write() returns
 * EPIPE. Set before the first write, which passes through out_flush (a run
 * that writes nothing makes no system call for it), and before the whole-
 * tree mode starts, whose processes stay and write to pipes of their own.
 */
void hold_sigpipe(void)
{
	struct sigaction ignore = {.sa_handler = SIG_IGN};

	if (!status.pipe_held && sigaction(SIGPIPE, &ignore, &status.caller_pipe) == 0)
		status.pipe_held = 1;
}

/* As env(1) does: the command gets the caller's disposition, not ours. exec
 * keeps an ignored signal ignored, so this must come before it. */
void give_back_sigpipe(void)
{
	if (!status.pipe_held)
		return;
	if (sigaction(SIGPIPE, &status.caller_pipe, NULL))
		die_errno("cannot restore the caller's SIGPIPE disposition");
	status.pipe_held = 0;
}

void out_flush(struct out *o)
{
	size_t done = 0;

	if (o->len > 0)
		hold_sigpipe();
	while (done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->failed = 1;
			break;
		}
		done += (size_t)n;
	}
	o->len = 0;
}

/* What a consumer reads from stdout must arrive whole, or the status says not. */
void flush_stdout(struct out *o)
{
	out_flush(o);
	if (o->failed)
		die_errno("cannot write to standard output");
}

static void status_failed(int code, const char *line, size_t len);

static __attribute__((noreturn)) void vfail(int code, const char *fmt, va_list *ap,
					    const char *reason)
{
	struct out line = {.fd = -1, .escape = ESCAPE_CONTROL};
	size_t len;

	outf(&line, "landlock-run: ");
	voutf(&line, fmt, ap);
	if (reason)
		outf(&line, ": %s", reason);
	/* Consumers match on one line: the last byte is always the newline. */
	line.len = line.len < sizeof line.buf ? line.len : sizeof line.buf - 1;
	line.buf[line.len++] = '\n';
	line.fd = STDERR_FILENO;
	len = line.len;
	/* Nothing is left to report a failed write to; the status still tells. */
	out_flush(&line);
	status_failed(code, line.buf, len - 1);
	if (status.cleanup) {
		void (*fn)(void *, int) = status.cleanup;

		status.cleanup = NULL; /* a failure in it fails once */
		fn(status.ctx, code);
	}
	if (status.ender)
		status_end(code << 8); /* a wait status: exited with CODE */
	exit(code);
}

void fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(code, fmt, &ap, NULL);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(EXIT_LAUNCHER, fmt, &ap, NULL);
}

void die_errno(const char *fmt, ...)
{
	const char *reason = strerror(errno);
	va_list ap;

	va_start(ap, fmt);
	vfail(EXIT_LAUNCHER, fmt, &ap, reason);
}

/* Keys and values are plain words chosen here, never outside text. */
void kv_key(struct kv *kv, const char *key)
{
	if (kv->json)
		outf(kv->o, kv->n ? ",\"%s\":" : "{\"%s\":", key);
	else if (kv->n)
		outf(kv->o, "\n%s%s=", kv->prefix, key);
	else
		outf(kv->o, "%s%s=", kv->prefix, key);
	kv->n++;
}

void kv_int(struct kv *kv, const char *key, long value)
{
	kv_key(kv, key);
	outf(kv->o, "%ld", value);
}

void kv_word(struct kv *kv, const char *key, const char *word)
{
	kv_key(kv, key);
	outf(kv->o, kv->json ? "\"%s\"" : "%s", word);
}

void kv_bool(struct kv *kv, const char *key, int value)
{
	kv_key(kv, key);
	outf(kv->o, "%s", kv->json ? (value ? "true" : "false") : (value ? "yes" : "no"));
}

/* A comma list, or a JSON array of strings. */
void put_names(struct out *o, const struct name *names, uint64_t mask, int json)
{
	const char *sep = "";

	outf(o, "%s", json ? "[" : "");
	for (; names->name; names++) {
		if (!(mask & names->bit))
			continue;
		outf(o, json ? "%s\"%s\"" : "%s%s", sep, names->name);
		sep = ",";
	}
	outf(o, "%s", json ? "]" : "");
}

void kv_names(struct kv *kv, const char *key, const struct name *names, uint64_t mask)
{
	kv_key(kv, key);
	put_names(kv->o, names, mask, kv->json);
}

void kv_end(struct kv *kv)
{
	outf(kv->o, "%s\n", kv->json ? (kv->n ? "}" : "{}") : "");
}

/* SIZE bytes of zeroed memory, or a launcher failure naming WHAT: the
 * launcher's one way to allocate (no malloc). */
void *mapped(size_t size, const char *what)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die_errno("cannot allocate %s", what);
	return p;
}

/* One JSON line on the status descriptor, flushed at once. */
static void status_line(struct kv *kv)
{
	kv_end(kv);
	out_flush(kv->o);
}

void at_failure(void (*fn)(void *ctx, int code), void *ctx)
{
	status.cleanup = fn;
	status.ctx = ctx;
}

void status_start(int fd)
{
	status.fd = fd;
	status.ender = 1;
}

int status_open(void)
{
	return status.fd >= 0;
}

void status_forked(void)
{
	status.ender = 0;
}

/* Before exec: the pid COMMAND runs as (0: this process's) and what
 * confines it. Without --status-fd, not a system call. */
void status_running(const struct policy *p, pid_t pid, const char *enforcement)
{
	struct out o;
	struct kv kv = {.o = &o, .json = 1};

	if (status.fd < 0)
		return;
	out_start(&o, status.fd, ESCAPE_JSON);
	kv_int(&kv, "pid", pid ? pid : getpid());
	kv_int(&kv, "abi", p->kernel.kernel_abi);
	kv_int(&kv, "abi_used", p->kernel.abi);
	kv_word(&kv, "enforcement", enforcement);
	status_line(&kv);
}

/* The traced COMMAND's first exec succeeded (a plain run says it by EOF). */
void status_executed(pid_t pid)
{
	struct out o;
	struct kv kv = {.o = &o, .json = 1};

	status.executed = 1;
	if (status.fd < 0)
		return;
	out_start(&o, status.fd, ESCAPE_JSON);
	kv_bool(&kv, "exec", 1);
	kv_int(&kv, "pid", pid);
	status_line(&kv);
}

/* The failure line: the exit status and the stderr line, on one line. */
static void status_failed(int code, const char *line, size_t len)
{
	struct out o;
	struct kv kv = {.o = &o, .json = 1};

	if (status.fd < 0)
		return;
	out_start(&o, status.fd, ESCAPE_JSON);
	kv_bool(&kv, "exec", status.executed);
	kv_int(&kv, "status", code);
	kv_key(&kv, "error");
	outf(&o, "\"%.*s\"", (int)len, line);
	status_line(&kv);
}

/* A signal's name, as kill -l has it; a real-time one by number. */
static const char *signal_name(int sig, char *buf)
{
	static const char *const names[] = {
		"SIGHUP",  "SIGINT",	"SIGQUIT", "SIGILL",  "SIGTRAP",   "SIGABRT", "SIGBUS",
		"SIGFPE",  "SIGKILL",	"SIGUSR1", "SIGSEGV", "SIGUSR2",   "SIGPIPE", "SIGALRM",
		"SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP",   "SIGTSTP", "SIGTTIN",
		"SIGTTOU", "SIGURG",	"SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH",
		"SIGIO",   "SIGPWR",	"SIGSYS",
	};
	char num[24];

	if (sig >= 1 && sig <= (int)(sizeof names / sizeof names[0]))
		return names[sig - 1];
	join(buf, 32, "SIG", decimal(sig, num), NULL);
	return buf;
}

/*
 * The end record, the last line, once nothing the command started is left:
 * {"exit":N} or {"signal":"NAME"}, as the launcher exits (WAIT_STATUS, a
 * wait status). End of file follows: the writer is the last holder.
 */
void status_end(int wait_status)
{
	struct out o;
	struct kv kv = {.o = &o, .json = 1};
	char buf[32];

	status.ender = 0;
	if (status.fd < 0)
		return;
	out_start(&o, status.fd, ESCAPE_JSON);
	if ((wait_status & 0x7f) == 0)
		kv_int(&kv, "exit", (wait_status >> 8) & 0xff);
	else
		kv_word(&kv, "signal", signal_name(wait_status & 0x7f, buf));
	status_line(&kv);
}

/* N random letters and digits at OUT, for names no one can guess. */
void random_letters(char *out, size_t n)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char random[16];
	size_t i;

	if (n > sizeof random || syscall(SYS_getrandom, random, n, 0) != (long)n)
		die_errno("cannot make up a file name");
	for (i = 0; i < n; i++)
		out[i] = letters[random[i] % (sizeof letters - 1)];
}

/* N bytes of S (fewer if SIZE says so) in OUT, terminated. */
void copy_span(char *out, size_t size, const char *s, size_t n)
{
	n = n < size - 1 ? n : size - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* The strings up to a NULL, one after another in OUT, cut to fit SIZE. */
void join(char *out, size_t size, ...)
{
	const char *s;
	size_t len = 0, n;
	va_list ap;

	va_start(ap, size);
	while ((s = va_arg(ap, const char *))) {
		n = strlen(s);
		copy_span(out + len, size - len, s, n);
		len += n < size - 1 - len ? n : size - 1 - len;
	}
	va_end(ap);
	out[len] = '\0';
}

/* N in decimal, written in BUF (24 bytes). */
const char *decimal(long n, char *buf)
{
	buf[23] = '\0';
	return digits(buf + 23, n < 0 ? 0 - (unsigned long long)n : (unsigned long long)n, 10,
		      n < 0);
}

/* strtoul with every check: a digit first (no sign, no space), no overflow,
 * at most MAX; with END NULL the number is the whole of S. */
long number_at(const char *s, const char **end, unsigned long max)
{
	unsigned long n;
	char *e;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoul(s, &e, 10);
	if (end)
		*end = e;
	return errno || n > max || (!end && *e) ? -1 : (long)n;
}
