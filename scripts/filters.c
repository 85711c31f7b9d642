/*
 * The filters of the runs most made, built when the launcher is: seccomp.c's
 * own builder, run here on the target's table (LR_PLATFORM names its
 * platform/linux-*.h), prints them as C for build/ARCH/prebuilt-filters.h.
 * A run whose groups are one of these installs the table (seccomp.c:
 * filter_syscalls); any other builds its filter as before. Building one
 * costs a launch some 10-15 us of cold code and data, the filter's largest
 * share of the launcher's own time (docs/performance.md).
 *
 *   filters > prebuilt-filters.h
 *
 * The runs: root's default (the baseline and the metadata rules), with the
 * refusal of shared mappings of files that a directory write grant brings,
 * and without it; anyone else's default (the baseline).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define LR_FILTERS_GENERATOR
#include "../seccomp.c"

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("filters: the builder died: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static const uint64_t runs[] = {
	GROUP_TTY | GROUP_BASELINE | GROUP_SETID_MAPS,
	GROUP_TTY | GROUP_BASELINE,
	GROUP_TTY | (GROUP_BASELINE & ~(uint64_t)GROUP_METADATA),
};

int main(void)
{
	static struct filter f;
	size_t i, j, n = sizeof runs / sizeof runs[0];

	printf("/* Made by scripts/filters.c for %s: do not edit. */\n", LR_PLATFORM);
	for (i = 0; i < n; i++) {
		const struct build b = {runs[i], 0};

		f.len = 0;
		build_filter(&f, &b);
		printf("static const struct sock_filter prebuilt_%zu[%u] = {\n", i,
		       (unsigned)f.len);
		for (j = 0; j < f.len; j++)
			printf("\t{0x%02x, %u, %u, 0x%08xU},\n", f.insn[j].code, f.insn[j].jt,
			       f.insn[j].jf, f.insn[j].k);
		printf("};\n");
	}
	printf("static const struct prebuilt {\n\tuint64_t groups;\n\tunsigned short len;\n"
	       "\tconst struct sock_filter *insn;\n} prebuilt[] = {\n");
	for (i = 0; i < n; i++)
		printf("\t{0x%llxULL, sizeof prebuilt_%zu / sizeof prebuilt_%zu[0], "
		       "prebuilt_%zu},\n",
		       (unsigned long long)runs[i], i, i, i);
	printf("};\n");
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
