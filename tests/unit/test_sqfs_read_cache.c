/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The reader's sharded LRU cache: hits and misses, the byte budget, buffers
 * outliving their eviction, a racing insert of the same key, and many
 * threads hammering it at once. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "squashfs/cache.h"

static struct sqfs_cbuf *make(size_t cap, uint8_t fill)
{
	struct sqfs_cbuf *b = sqfs_cbuf_alloc(cap);

	assert_non_null(b);
	memset(b->data, fill, cap);
	b->len = (uint32_t)cap;
	return b;
}

/* An entry-sized buffer of the cache's own, filled with its key. */
static struct sqfs_cbuf *fill(struct sqfs_cache *c, uint64_t key)
{
	struct sqfs_cbuf *b = sqfs_cache_alloc(c, 4096);

	assert_non_null(b);
	memset(b->data, (uint8_t)key, 4096);
	b->len = 4096;
	return b;
}

static void test_hit_and_miss(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(1 << 20, 4096);
	struct sqfs_cbuf *b;

	(void)state;
	assert_null(sqfs_cache_get(c, 42));
	b = sqfs_cache_put(c, 42, make(100, 7));
	sqfs_cbuf_release(b);
	b = sqfs_cache_get(c, 42);
	assert_non_null(b);
	assert_int_equal(b->data[99], 7);
	sqfs_cbuf_release(b);
	assert_null(sqfs_cache_get(c, 43));
	sqfs_cache_free(c);
}

static void test_budget_evicts(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(64 * 4096, 4096);
	uint64_t k;
	int present = 0;

	(void)state;
	for (k = 0; k < 1000; k++)
		sqfs_cbuf_release(sqfs_cache_put(c, k * 8192, make(4096, (uint8_t)k)));
	for (k = 0; k < 1000; k++) {
		struct sqfs_cbuf *b = sqfs_cache_get(c, k * 8192);

		if (b) {
			assert_int_equal(b->data[0], (uint8_t)k);
			present++;
			sqfs_cbuf_release(b);
		}
	}
	assert_true(present > 0);
	assert_true(present <= 64);
	sqfs_cache_free(c);
}

static void test_buffer_outlives_eviction(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(16 * 4096, 4096);
	struct sqfs_cbuf *held = sqfs_cache_put(c, 1, make(4096, 0x5a));
	uint64_t k;

	(void)state;
	for (k = 2; k < 200; k++)
		sqfs_cbuf_release(sqfs_cache_put(c, k, make(4096, 0)));
	assert_int_equal(held->data[4095], 0x5a); /* ASan would flag a freed buffer */
	sqfs_cbuf_release(held);
	sqfs_cache_free(c);
}

static void test_second_insert_returns_first(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(1 << 20, 4096);
	struct sqfs_cbuf *a = sqfs_cache_put(c, 9, make(64, 1));
	struct sqfs_cbuf *b = sqfs_cache_put(c, 9, make(64, 2));

	(void)state;
	assert_ptr_equal(a, b);
	assert_int_equal(b->data[0], 1);
	sqfs_cbuf_release(a);
	sqfs_cbuf_release(b);
	sqfs_cache_free(c);
}

static void test_zero_budget_keeps_nothing(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(0, 4096);
	struct sqfs_cbuf *b = sqfs_cache_put(c, 5, make(64, 3));

	(void)state;
	assert_int_equal(b->data[0], 3);
	sqfs_cbuf_release(b);
	assert_null(sqfs_cache_get(c, 5));
	sqfs_cache_free(c);
}

/* A budget of a few entries still keeps them: the cache then uses fewer
 * shards instead of giving each a share smaller than one entry. */
static void test_small_budget_keeps_entries(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(10 * 4096, 4096);
	uint64_t k;

	(void)state;
	for (k = 0; k < 10; k++)
		sqfs_cbuf_release(sqfs_cache_put(c, k * 8192, make(4096, (uint8_t)k)));
	for (k = 0; k < 10; k++) {
		struct sqfs_cbuf *b = sqfs_cache_get(c, k * 8192);

		assert_non_null(b);
		assert_int_equal(b->data[4095], (uint8_t)k);
		sqfs_cbuf_release(b);
	}
	sqfs_cache_free(c);
}

/* Entry-sized buffers come from the cache's own chunks and go back to
 * them on release (cache_slab.c): a stream of blocks through a cache of
 * four entries reuses a handful of buffers, not one per block. */
static void test_buffers_recycled(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(4 * 8192, 8192);
	struct sqfs_cbuf *b, *odd;
	uint8_t *seen[16];
	size_t n_seen = 0, i;
	uint64_t k;

	(void)state;
	b = sqfs_cache_alloc(c, 8192);
	assert_non_null(b);
	assert_non_null(b->home);
	assert_true(b->cap >= 8192);
	seen[n_seen++] = b->data;
	sqfs_cbuf_release(b);
	b = sqfs_cache_alloc(c, 8192);
	assert_ptr_equal(b->data, seen[0]); /* the one just given back */
	sqfs_cbuf_release(b);
	odd = sqfs_cache_alloc(c, 100); /* not the entry size: malloc'd */
	assert_null(odd->home);
	sqfs_cbuf_release(odd);
	for (k = 0; k < 200; k++) {
		b = sqfs_cache_alloc(c, 8192);
		assert_non_null(b);
		memset(b->data, (int)k, 8192);
		b->len = 8192;
		for (i = 0; i < n_seen && seen[i] != b->data; i++)
			;
		if (i == n_seen) {
			assert_true(n_seen < 16);
			seen[n_seen++] = b->data;
		}
		sqfs_cbuf_release(sqfs_cache_put(c, k * 8192, b));
	}
	assert_true(n_seen <= 6); /* four kept, one being filled, slack one */
	b = sqfs_cache_get(c, 199 * 8192);
	assert_non_null(b);
	assert_int_equal(b->data[8191], 199);
	sqfs_cbuf_release(b);
	sqfs_cache_free(c);
}

static void *hammer(void *arg)
{
	struct sqfs_cache *c = arg;
	uint64_t i;

	for (i = 0; i < 20000; i++) {
		uint64_t key = (i * 2654435761u) % 300;
		struct sqfs_cbuf *b = sqfs_cache_get(c, key);

		if (!b)
			b = sqfs_cache_put(c, key, key % 2 ? make(1024, (uint8_t)key) : fill(c, key));
		if (b->data[1023] != (uint8_t)key)
			return (void *)1;
		sqfs_cbuf_release(b);
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct sqfs_cache *c = sqfs_cache_new(100 * 1024, 4096);
	pthread_t t[4];
	void *ret;
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, hammer, c), 0);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &ret);
		assert_null(ret);
	}
	sqfs_cache_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_and_miss),
		cmocka_unit_test(test_budget_evicts),
		cmocka_unit_test(test_buffer_outlives_eviction),
		cmocka_unit_test(test_second_insert_returns_first),
		cmocka_unit_test(test_zero_budget_keeps_nothing),
		cmocka_unit_test(test_small_budget_keeps_entries),
		cmocka_unit_test(test_buffers_recycled),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
