/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/hmap.c: byte-string keys short (in the slot) and long (on the
 * heap), the empty key, prefixes, replacement, growth past many
 * thousands, values freed on clear, the u64 -> pointer face, and the
 * compact set of 32-bit ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/hmap.h"

static void byte_keys(void **state)
{
	struct ff_hmap m = {0};
	uint64_t v = 0;
	char key[64];

	(void)state;
	assert_int_equal(ff_hmap_find(&m, "x", 1, &v), 0); /* empty map */
	for (int i = 0; i < 20000; i++) {
		/* every third key is longer than a slot holds */
		int len = snprintf(key, sizeof(key), i % 3 ? "key-%d" : "a-much-longer-key-%d", i);

		assert_int_equal(ff_hmap_set(&m, key, (size_t)len, (uint64_t)i * 3), 0);
	}
	assert_int_equal(m.n, 20000);
	for (int i = 0; i < 20000; i += 7) {
		int len = snprintf(key, sizeof(key), i % 3 ? "key-%d" : "a-much-longer-key-%d", i);

		assert_int_equal(ff_hmap_find(&m, key, (size_t)len, &v), 1);
		assert_int_equal(v, (uint64_t)i * 3);
	}
	assert_int_equal(ff_hmap_find(&m, "key-20000", 9, &v), 0);
	assert_int_equal(ff_hmap_find(&m, "key-1", 4, &v), 0); /* a prefix is another key */
	assert_int_equal(ff_hmap_set(&m, "", 0, 42), 0);
	assert_int_equal(ff_hmap_find(&m, "", 0, &v), 1);
	assert_int_equal(v, 42);
	assert_int_equal(ff_hmap_set(&m, "key-1", 5, 7), 0); /* replaces */
	assert_int_equal(ff_hmap_find(&m, "key-1", 5, &v), 1);
	assert_int_equal(v, 7);
	assert_int_equal(m.n, 20001);
	ff_hmap_clear(&m, NULL);
	assert_int_equal(m.n, 0);
	assert_int_equal(ff_hmap_find(&m, "key-1", 5, &v), 0);
}

static int freed;

static void count_free(void *p)
{
	freed++;
	free(p);
}

static void handle_keys(void **state)
{
	struct ff_hmap m = {0};

	(void)state;
	freed = 0;
	for (uint64_t k = 0; k < 1000; k++)
		assert_int_equal(ff_hmap_put(&m, k << 32, malloc(8)), 0);
	assert_non_null(ff_hmap_get(&m, 5ull << 32));
	assert_null(ff_hmap_get(&m, 5));
	ff_hmap_free(&m, count_free);
	assert_int_equal(freed, 1000);
	assert_null(ff_hmap_get(&m, 5ull << 32));
}

/* ids stored with the hash of key id / 2, (key % 97) spread over the 32
 * bits (so many keys share one): two ids per key, the match callback
 * picks the even one */
static int want_key;
static int rehashed;

static uint32_t key_hash(uint32_t key)
{
	return (key % 97) * 0x9e3779b1u;
}

static int match_key(void *ctx, uint32_t id)
{
	(void)ctx;
	if (want_key < 0)
		return -1;
	return (int)(id / 2) == want_key && id % 2 == 0;
}

static uint32_t id_hash(void *ctx, uint32_t id)
{
	(void)ctx;
	rehashed++;
	return key_hash(id / 2);
}

static void compact_set(void **state)
{
	struct ff_hset s = {0};
	uint32_t id = 0, room;

	(void)state;
	want_key = 3;
	assert_int_equal(ff_hset_find(&s, 6, match_key, NULL, &id), 0); /* empty */
	assert_int_equal(ff_hset_reserve(&s, 1000), 0);
	assert_true(s.cap >= 1000 && s.cap * 3 >= 1000 * 4);
	room = (uint32_t)(s.cap * 3 / 4); /* 1,005: the reservation's load */
	for (uint32_t i = 0; i < room; i++) /* no growth: rehash not needed */
		assert_int_equal(ff_hset_add(&s, key_hash(i / 2), i, NULL, NULL), 0);
	/* past it without a rehash function: refused */
	assert_int_equal(ff_hset_add(&s, key_hash(room / 2), room, NULL, NULL), -1);
	assert_int_equal(ff_hset_reserve(&s, 5000), -1); /* not empty */
	for (uint32_t i = room; i < 30000; i++) /* grows past the reservation */
		assert_int_equal(ff_hset_add(&s, key_hash(i / 2), i, id_hash, NULL), 0);
	assert_int_equal(s.n, 30000);
	assert_true(rehashed >= 1000); /* the first ids were placed again */
	for (int k = 0; k < 15000; k += 13) {
		want_key = k;
		assert_int_equal(ff_hset_find(&s, key_hash((uint32_t)k), match_key, NULL, &id), 1);
		assert_int_equal(id, (uint32_t)k * 2);
		/* the right key under another hash is not found */
		assert_int_equal(ff_hset_find(&s, key_hash((uint32_t)k) + 1, match_key, NULL, &id),
				 0);
	}
	want_key = 15000;
	assert_int_equal(ff_hset_find(&s, key_hash(15000), match_key, NULL, &id), 0);
	want_key = -1; /* the callback's error comes back */
	assert_int_equal(ff_hset_find(&s, key_hash(5), match_key, NULL, &id), -1);
	/* the largest id, and one past it refused */
	assert_int_equal(ff_hset_add(&s, 0xffffffffu, FF_HSET_ID_MAX, id_hash, NULL), 0);
	assert_int_equal(ff_hset_add(&s, 0xffffffffu, FF_HSET_ID_MAX + 1, id_hash, NULL), -1);
	want_key = (int)(FF_HSET_ID_MAX / 2);
	assert_int_equal(ff_hset_find(&s, 0xffffffffu, match_key, NULL, &id), 1);
	assert_int_equal(id, FF_HSET_ID_MAX);
	assert_int_equal(s.n, 30001);
	ff_hset_free(&s);
	assert_int_equal(s.n, 0);
	assert_int_equal(ff_hset_find(&s, 6, match_key, NULL, &id), 0);
}

/* Rehashes in id order: the last id asked for, and whether any came out
 * of order. */
struct order {
	uint32_t last;
	int asked, backwards;
};

static uint32_t ordered_hash(void *ctx, uint32_t id)
{
	struct order *o = ctx;

	if (o->asked++ && id <= o->last)
		o->backwards++;
	o->last = id;
	return key_hash(id / 2);
}

/* A set filled by ff_hset_add_next holds ids 0..n-1 and grows by asking
 * for their hashes in that order (the tree's keys are then read in the
 * order they were stored); it cannot be mixed with ff_hset_add. */
static void dense_set(void **state)
{
	struct ff_hset s = {0}, other = {0};
	struct order o = {0};
	uint32_t id = 0;

	(void)state;
	for (uint32_t i = 0; i < 20000; i++) {
		o.asked = 0; /* each growth is asked in order from its start */
		assert_int_equal(ff_hset_add_next(&s, key_hash(i / 2), ordered_hash, &o), 0);
		assert_int_equal(o.backwards, 0);
	}
	assert_int_equal(s.n, 20000);
	assert_true(o.last >= 10000); /* it grew, late on */
	for (int k = 0; k < 10000; k += 7) {
		want_key = k;
		assert_int_equal(ff_hset_find(&s, key_hash((uint32_t)k), match_key, NULL, &id), 1);
		assert_int_equal(id, (uint32_t)k * 2);
	}
	/* an id that is not the next one breaks the order: refused */
	assert_int_equal(ff_hset_add(&s, key_hash(1), 5, ordered_hash, &o), -1);
	assert_int_equal(ff_hset_add(&s, key_hash(1), 30000, ordered_hash, &o), -1);
	assert_int_equal(ff_hset_add(&s, key_hash(10000), 20000, ordered_hash, &o), 0);
	/* a set ff_hset_add filled is not dense */
	assert_int_equal(ff_hset_add(&other, key_hash(0), 7, id_hash, NULL), 0);
	assert_int_equal(ff_hset_add_next(&other, key_hash(0), id_hash, NULL), -1);
	ff_hset_free(&s);
	ff_hset_free(&other);
	assert_int_equal(s.dense, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(byte_keys),
		cmocka_unit_test(handle_keys),
		cmocka_unit_test(compact_set),
		cmocka_unit_test(dense_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
