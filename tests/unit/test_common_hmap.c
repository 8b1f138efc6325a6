/* common/hmap.c: byte-string keys short (in the slot) and long (on the
 * heap), the empty key, prefixes, replacement, growth past many
 * thousands, values freed on clear, and the u64 -> pointer face. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(byte_keys),
		cmocka_unit_test(handle_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
