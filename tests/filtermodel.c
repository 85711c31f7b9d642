/*
 * The seccomp filter against a plain reading of its rule table: for every
 * set of groups, traced or not, the filter seccomp.c builds is run by an
 * emulator of classic BPF on every ABI of this target and every number, and
 * must answer as the table says (rules on a call in table order, the first
 * that matches refuses; traced, a refusal on the native ABI stops unless
 * argument 5 carries the mark). It must also decide every call without a
 * rule on the arch and the number alone (the kernel's action cache then
 * answers it), never run off its end, and return KILL_PROCESS for an arch
 * it does not know. Prints one line; exit 0 when it agrees, 1 at the first
 * disagreement, which it names.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../seccomp.c"

#ifdef LR_PREBUILT
#define PREBUILT_COUNT (sizeof prebuilt / sizeof prebuilt[0])
#else
#define PREBUILT_COUNT (size_t)0
#endif

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("filtermodel: the builder died: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	exit(1);
}

#define UNKNOWN_ARCH 0x12345678U
#define NUMBERS	     1024 /* every number tried, each ABI: above all the table's */

/* struct seccomp_data as 32-bit words: nr, arch, ip (2), args (2 each). */
struct data {
	uint32_t w[16];
};

static void set_arg(struct data *d, unsigned i, uint32_t low, uint32_t high)
{
	d->w[SECCOMP_DATA_ARG(i) / 4] = low;
	d->w[SECCOMP_DATA_ARG(i) / 4 + 1] = high;
}

/* The filter as the kernel runs it; *ARGS is set when it read an argument. */
static uint32_t run(const struct filter *f, const struct data *d, int *args)
{
	uint32_t a = 0;
	size_t pc = 0;

	*args = 0;
	while (pc < f->len) {
		const struct sock_filter *i = &f->insn[pc++];

		switch (i->code) {
		case BPF_LD_ABS:
			if (i->k % 4 || i->k >= sizeof d->w)
				return 0xdead0001;
			*args |= i->k >= SECCOMP_DATA_ARG(0);
			a = d->w[i->k / 4];
			break;
		case BPF_LD_IMM: a = i->k; break;
		case BPF_AND_K: a &= i->k; break;
		case BPF_JA: pc += i->k; break;
		case BPF_JEQ_K: pc += a == i->k ? i->jt : i->jf; break;
		case BPF_JGT_K: pc += a > i->k ? i->jt : i->jf; break;
		case BPF_JSET_K: pc += a & i->k ? i->jt : i->jf; break;
		case BPF_RET_K: return i->k;
		default: return 0xdead0002;
		}
	}
	return 0xdead0003; /* ran off its end */
}

/*
 * The ABI a call enters by: its arch, and the bit of a bit ABI (x32) if its
 * number carries it; NABIS for an arch the table does not know. *NR is its
 * number there. A number of a bit ABI that is no rule's own but, the bit
 * cleared, the native number of a call the ABI numbers apart (x32's ioctl
 * is 514, not 16) sets *PHANTOM: the kernel has no such call on x32 (it
 * says ENOSYS), and the filter may allow it or, where it maps the ABI's
 * numbers onto the native ones, judge it as the native call.
 */
static size_t abi_of(const struct data *d, uint32_t *nr, int *phantom)
{
	size_t abi, row, plain = NABIS;

	*nr = d->w[0];
	*phantom = 0;
	for (abi = 0; abi < NABIS; abi++) {
		if (abis[abi].arch != d->w[1])
			continue;
		if (!abis[abi].nr_bit) {
			plain = abi;
			continue;
		}
		if (!(d->w[0] & abis[abi].nr_bit))
			continue;
		for (row = 0; row < NRULES; row++)
			if (rules[row].nr[abi] &&
			    (abis[abi].nr_bit | rules[row].nr[abi]) == d->w[0])
				return abi;
		for (row = 0; row < NRULES; row++)
			if (rules[row].nr[0] == (d->w[0] & ~abis[abi].nr_bit) &&
			    rules[row].nr[abi] != rules[row].nr[0]) {
				*nr = rules[row].nr[0];
				*phantom = 1;
				return 0;
			}
		return abi;
	}
	return plain;
}

/* What the table says: the active rules on the call, in table order. */
static uint32_t model(const struct build *b, const struct data *d, int *has_rule, int *phantom)
{
	uint32_t nr;
	size_t abi = abi_of(d, &nr, phantom), row;

	*has_rule = 0;
	if (abi == NABIS)
		return SECCOMP_RET_KILL_PROCESS;
	for (row = 0; row < NRULES; row++) {
		const struct rule *r = &rules[row];
		uint32_t v = d->w[SECCOMP_DATA_ARG(r->arg) / 4];
		int match;

		if (!active(r, abi, b->groups) || (abis[abi].nr_bit | r->nr[abi]) != nr)
			continue;
		*has_rule = 1;
		match = unconditional(r) || (r->test == EQ && v == r->k) ||
			(r->test == NE && v != r->k) || (r->test == SET && (v & r->k)) ||
			(r->test == MASKED && (v & r->k >> 16) == (r->k & 0xffff));
		if (!match)
			continue;
		if (stops(b, row, abi) && d->w[SECCOMP_DATA_ARG(5) / 4] != TRACE_MARK)
			return SECCOMP_RET_TRACE | (uint32_t)(TRACE_BASE + row);
		return SECCOMP_RET_ERRNO | r->err;
	}
	return SECCOMP_RET_ALLOW;
}

static unsigned long vectors;

static void check(const struct build *b, const struct filter *f, const struct data *d)
{
	int has_rule, args, phantom;
	uint32_t want = model(b, d, &has_rule, &phantom), got = run(f, d, &args);

	vectors++;
	if (phantom && (got == want || got == SECCOMP_RET_ALLOW))
		return;
	if (got == want && (has_rule || !args))
		return;
	printf("filtermodel: groups 0x%llx%s, arch 0x%x nr 0x%x args",
	       (unsigned long long)b->groups, b->traced ? " traced" : "", d->w[1], d->w[0]);
	for (unsigned i = 0; i < 6; i++)
		printf(" %x:%x", d->w[SECCOMP_DATA_ARG(i) / 4 + 1], d->w[SECCOMP_DATA_ARG(i) / 4]);
	if (got != want)
		printf(": the filter says 0x%x, the table 0x%x\n", got, want);
	else
		printf(": the filter reads an argument of a call without a rule\n");
	exit(1);
}

/* The values worth trying in an argument a rule tests: each rule's
 * constant, it less one bit, its complement, and the edges; for MASKED,
 * whose constant is mask << 16 | bits: the bits, the mask, the bits with
 * every bit outside the mask set, and the bits with each of the mask's
 * flipped. */
static size_t add_value(uint32_t *v, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n && v[i] != x; i++)
		;
	if (i == n)
		v[n++] = x;
	return n;
}

static size_t values(uint32_t *v)
{
	size_t n = 0, i;
	uint32_t mask, bits, bit;

	n = add_value(v, n, 0);
	n = add_value(v, n, 0xffffffff);
	n = add_value(v, n, TRACE_MARK);
	for (i = 0; i < NRULES; i++) {
		n = add_value(v, n, rules[i].k);
		n = add_value(v, n, rules[i].k & (rules[i].k - 1));
		n = add_value(v, n, ~rules[i].k);
		if (rules[i].test != MASKED)
			continue;
		mask = rules[i].k >> 16;
		bits = rules[i].k & 0xffff;
		for (bit = 0; bit < 16; bit++)
			if (mask >> bit & 1)
				n = add_value(v, n, bits ^ 1U << bit);
		n = add_value(v, n, bits);
		n = add_value(v, n, mask);
		n = add_value(v, n, bits | ~mask);
	}
	return n;
}

/* Every number of one arch (and its bit ABI's), every argument a rule on
 * it tests at every value, with and without the mark. */
static void check_arch(const struct build *b, const struct filter *f, uint32_t arch, uint32_t bit)
{
	uint32_t v[3 + 22 * NRULES];
	size_t nv = values(v), i, j;
	uint32_t nr;

	for (nr = 0; nr < NUMBERS; nr++) {
		struct data d = {{nr | bit, arch}};

		check(b, f, &d);
		for (i = 0; i < NRULES; i++) {
			int seen = 0;

			for (j = 0; j < NABIS; j++)
				seen |= rules[i].nr[j] &&
					(rules[i].nr[j] == nr ||
					 (abis[j].nr_bit | rules[i].nr[j]) == (nr | bit));
			if (!seen)
				continue;
			for (j = 0; j < 4 * nv; j++) {
				struct data t = d;

				set_arg(&t, rules[i].arg, v[j / 4], j & 1 ? 0xffffffff : 0);
				if (j & 2)
					set_arg(&t, 5, TRACE_MARK, 0);
				check(b, f, &t);
			}
		}
	}
}

int main(void)
{
	uint64_t g;
	int traced;
	size_t abi, longest = 0;

	for (g = 0; g < (uint64_t)GROUP_SETID_MAPS << 1; g++) {
		if (!(g & GROUP_TTY))
			continue;
		for (traced = 0; traced < 2; traced++) {
			struct build b = {g, traced};
			struct filter f = {.len = 0};

			build_filter(&f, &b);
			if (f.len > longest)
				longest = f.len;
			for (abi = 0; abi < NABIS; abi++)
				check_arch(&b, &f, abis[abi].arch, abis[abi].nr_bit);
			check_arch(&b, &f, UNKNOWN_ARCH, 0);
		}
	}
#ifdef LR_PREBUILT
	/* the prebuilt filters are the builder's, made from this seccomp.c */
	for (abi = 0; abi < sizeof prebuilt / sizeof prebuilt[0]; abi++) {
		struct build b = {prebuilt[abi].groups, 0};
		struct filter f = {.len = 0};

		build_filter(&f, &b);
		if (f.len != prebuilt[abi].len ||
		    memcmp(f.insn, prebuilt[abi].insn, f.len * sizeof f.insn[0])) {
			printf("filtermodel: prebuilt filter %zu (groups 0x%llx) is not what the "
			       "builder makes: make rebuilds build/ARCH/prebuilt-filters.h\n",
			       abi, (unsigned long long)prebuilt[abi].groups);
			return 1;
		}
	}
#endif
	printf("filtermodel: the filter answers as its table for %lu vectors, every group set "
	       "traced or not, %zu ABIs (longest filter %zu instructions), and %zu prebuilt "
	       "filters are the builder's\n",
	       vectors, (size_t)NABIS, longest, PREBUILT_COUNT);
	return 0;
}
