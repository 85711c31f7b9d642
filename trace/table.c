/*
 * Small hash tables for the tracer: the threads it follows, the denials it
 * reported, the paths a learning run used. Open addressing with linear
 * probing on non-zero 64-bit keys, records of a fixed size that start with
 * their key, deletion by shifting the cluster back (no tombstones, so a
 * run with a million short-lived threads stays fast). Memory is mapped,
 * grows by doubling and is never given back: the tracer exits when done.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>

#include "../out.h"
#include "tracer.h"

#define FIRST_CAP 1024 /* slots; a power of two */

static uint64_t *key_at(const struct table *t, size_t i)
{
	return (uint64_t *)(t->slots + i * t->size);
}

/* Keys are often small and dense (thread ids): mix them first. */
static size_t slot_of(const struct table *t, uint64_t key)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (t->cap - 1);
}

static size_t find(const struct table *t, uint64_t key)
{
	size_t i = slot_of(t, key);

	while (*key_at(t, i) && *key_at(t, i) != key)
		i = (i + 1) & (t->cap - 1);
	return i;
}

void *table_get(const struct table *t, uint64_t key)
{
	size_t i;

	if (!t->slots)
		return NULL;
	i = find(t, key);
	return *key_at(t, i) ? key_at(t, i) : NULL;
}

static void grow(struct table *t)
{
	struct table old = *t;
	size_t i;

	t->cap = old.cap ? old.cap * 2 : FIRST_CAP;
	t->slots = mapped(t->cap * t->size, "the tracer's tables");
	for (i = 0; i < old.cap; i++)
		if (*key_at(&old, i))
			memcpy(key_at(t, find(t, *key_at(&old, i))), key_at(&old, i), t->size);
	if (old.slots)
		munmap(old.slots, old.cap * old.size);
}

void *table_put(struct table *t, uint64_t key)
{
	size_t i;

	if (2 * (t->used + 1) > t->cap)
		grow(t);
	i = find(t, key);
	if (!*key_at(t, i)) {
		memset(key_at(t, i), 0, t->size);
		*key_at(t, i) = key;
		t->used++;
	}
	return key_at(t, i);
}

/* Move back every record of the cluster after the hole that would no
 * longer be found from its own slot. */
void table_del(struct table *t, uint64_t key)
{
	size_t hole, i, home, mask = t->cap - 1;

	if (!t->slots || !*key_at(t, hole = find(t, key)))
		return;
	for (i = (hole + 1) & mask; *key_at(t, i); i = (i + 1) & mask) {
		home = slot_of(t, *key_at(t, i));
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			memcpy(key_at(t, hole), key_at(t, i), t->size);
			hole = i;
		}
	}
	*key_at(t, hole) = 0;
	t->used--;
}

uint64_t hash_bytes(const char *s, size_t n, uint64_t h)
{
	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL; /* FNV-1a */
	return h;
}

/* A string set: each record holds its string, copied into chunks of
 * memory the table keeps. Two strings whose hashes meet take the next odd
 * key, so they are still told apart. */
struct str_record {
	uint64_t key;
	char *s;
	size_t n;
};

#define CHUNK (1UL << 20)

char *table_keep(struct table *t, const char *s, size_t n)
{
	char *copy;

	if (t->heap_left < n + 1) {
		t->heap_left = n + 1 > CHUNK ? n + 1 : CHUNK;
		t->heap = mapped(t->heap_left, "the tracer's paths");
	}
	copy = t->heap;
	memcpy(copy, s, n);
	copy[n] = '\0';
	t->heap += n + 1;
	t->heap_left -= n + 1;
	return copy;
}

static uint64_t str_key(const char *s, size_t n)
{
	return hash_bytes(s, n, 0xcbf29ce484222325ULL) | 1;
}

int strset_has(const struct table *t, const char *s, size_t n)
{
	const struct str_record *r;
	uint64_t key;

	for (key = str_key(s, n); (r = table_get(t, key)); key += 2)
		if (r->n == n && memcmp(r->s, s, n) == 0)
			return 1;
	return 0;
}

int strset_add(struct table *t, const char *s, size_t n)
{
	uint64_t key = str_key(s, n);
	struct str_record *r;

	t->size = sizeof *r;
	for (; (r = table_get(t, key)); key += 2)
		if (r->n == n && memcmp(r->s, s, n) == 0)
			return 0;
	r = table_put(t, key);
	r->s = table_keep(t, s, n);
	r->n = n;
	return 1;
}

/* The records one after another: start with *I = 0; NULL at the end. */
void *table_next(const struct table *t, size_t *i)
{
	for (; *i < t->cap; (*i)++)
		if (*key_at(t, *i))
			return key_at(t, (*i)++);
	return NULL;
}

/* The strings of a set, in no order: the caller sorts them. */
const char *strset_next(const struct table *t, size_t *i)
{
	const struct str_record *r = table_next(t, i);

	return r ? r->s : NULL;
}
