/*
 * out.c: buffered output with printf-style formats, checked by the compiler:
 * %s %.*s %c %d %o %u %x with l or z. musl's printf would pull in floating
 * point formatting and stdio, a fifth of the binary. Also the one way to fail
 * (fail, die), small string steps, and key/value reports.
 */
#ifndef LR_OUT_H
#define LR_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum escape {
	ESCAPE_NONE,
	ESCAPE_CONTROL, /* %s arguments: control bytes become '?' */
	ESCAPE_C,	/* every byte kept, as bash's $'...' reads it */
	ESCAPE_JSON,	/* every byte kept, inside a JSON string */
};

struct out {
	int fd;	    /* -1: a string builder that keeps what fits */
	int escape; /* enum escape, for %s arguments */
	int failed;
	size_t len;
	char buf[4096];
};

/* O ready to gather for FD (-1: a string builder), its buffer left as it is:
 * `struct out o = {...}` clears all 4 KiB, stack pages a launch that prints
 * nothing would fault in for nothing. */
void out_start(struct out *o, int fd, int escape);
__attribute__((format(printf, 2, 3))) void outf(struct out *o, const char *fmt, ...);
void out_flush(struct out *o);
void hold_sigpipe(void);      /* before the first write; out_flush does it */
void give_back_sigpipe(void); /* the caller's SIGPIPE disposition, for exec */
void flush_stdout(struct out *o);
__attribute__((noreturn, format(printf, 2, 3))) void fail(int status, const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2))) void die(const char *fmt, ...);
/* die() with ": " and the text of errno as it was on entry appended. */
__attribute__((noreturn, format(printf, 1, 2))) void die_errno(const char *fmt, ...);
/* What a failure does before it exits (NULL: nothing): called once, with
 * CTX and the exit status. */
void at_failure(void (*fn)(void *ctx, int code), void *ctx);

/* Strings without printf: N bytes of S, the strings up to a NULL, N in
 * decimal (in a buffer of 24 bytes); each cut to fit and terminated. */
void *mapped(size_t size, const char *what); /* zeroed, or a launcher failure */
void copy_span(char *out, size_t size, const char *s, size_t n);
void random_letters(char *out, size_t n);
void join(char *out, size_t size, ...) __attribute__((sentinel));
const char *decimal(long n, char *buf);
/* The decimal number 0..MAX at S, *END after it (END NULL: all of S is
 * the number); -1 when there is none, or it is larger. */
long number_at(const char *s, const char **end, unsigned long max);

/* A report as "PREFIXkey=value" lines or as one JSON object, key by key. */
struct kv {
	struct out *o;
	const char *prefix; /* text lines start with it */
	int json;
	int n; /* keys written so far */
};

struct name; /* abi.h */

void kv_key(struct kv *kv, const char *key);
void kv_int(struct kv *kv, const char *key, long value);
void kv_word(struct kv *kv, const char *key, const char *word);
void kv_bool(struct kv *kv, const char *key, int value);
void kv_names(struct kv *kv, const char *key, const struct name *names, uint64_t mask);
void kv_end(struct kv *kv);
void put_names(struct out *o, const struct name *names, uint64_t mask, int json);

#endif
