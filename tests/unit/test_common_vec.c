/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/vec.c: pushing past many doublings keeps every element, append
 * of many at once, reserve without growing len, typed access, the
 * zeroed push, free leaving a reusable empty vector, and refused growth
 * (count * size overflowing) leaving the vector as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/vec.h"

struct pair {
	uint64_t a;
	uint32_t b;
};

static void push_many(void **state)
{
	struct ff_vec v = FF_VEC_INIT(struct pair);

	(void)state;
	assert_null(v.data);
	for (uint32_t i = 0; i < 100000; i++) {
		struct pair p = { (uint64_t)i * 3, i };

		assert_int_equal(ff_vec_push(&v, &p), 0);
	}
	assert_int_equal(v.len, 100000);
	assert_true(v.cap >= v.len);
	for (uint32_t i = 0; i < 100000; i += 97) {
		assert_int_equal(FF_VEC_AT(&v, struct pair, i)->a, (uint64_t)i * 3);
		assert_int_equal(FF_VEC_DATA(&v, struct pair)[i].b, i);
	}
	ff_vec_free(&v);
	assert_null(v.data);
	assert_int_equal(v.len, 0);
	assert_int_equal(v.elem, sizeof(struct pair)); /* reusable */
	assert_int_equal(ff_vec_push(&v, NULL), 0);   /* a zeroed element */
	assert_int_equal(FF_VEC_AT(&v, struct pair, 0)->a, 0);
	assert_int_equal(FF_VEC_AT(&v, struct pair, 0)->b, 0);
	ff_vec_free(&v);
}

static void bytes(void **state)
{
	struct ff_vec v;
	char big[5000];

	(void)state;
	ff_vec_init(&v, 1);
	assert_int_equal(ff_vec_append(&v, "abc", 3), 0);
	assert_int_equal(ff_vec_append(&v, "", 0), 0);
	memset(big, 'x', sizeof(big));
	assert_int_equal(ff_vec_append(&v, big, sizeof(big)), 0);
	assert_int_equal(ff_vec_append(&v, "", 1), 0);
	assert_int_equal(v.len, 3 + sizeof(big) + 1);
	assert_memory_equal(v.data, "abcxx", 5);
	assert_int_equal(((char *)v.data)[v.len - 1], '\0');
	ff_vec_free(&v);
}

static void reserve(void **state)
{
	struct ff_vec v = FF_VEC_INIT(uint32_t);
	void *before;

	(void)state;
	assert_int_equal(ff_vec_reserve(&v, 0), 0);
	assert_int_equal(ff_vec_reserve(&v, 1000), 0);
	assert_true(v.cap >= 1000);
	assert_int_equal(v.len, 0);
	before = v.data;
	assert_int_equal(ff_vec_reserve(&v, 10), 0); /* never shrinks */
	assert_ptr_equal(v.data, before);
	/* a reserved slot is filled, then counted */
	*FF_VEC_AT(&v, uint32_t, 0) = 7;
	v.len = 1;
	assert_int_equal(*(uint32_t *)ff_vec_at(&v, 0), 7);
	ff_vec_free(&v);
}

static void overflow(void **state)
{
	struct ff_vec v = FF_VEC_INIT(struct pair);

	(void)state;
	assert_int_equal(ff_vec_push(&v, &(struct pair){ 1, 2 }), 0);
	assert_int_equal(ff_vec_reserve(&v, SIZE_MAX / 2), -1);
	assert_int_equal(ff_vec_reserve(&v, SIZE_MAX), -1);
	assert_int_equal(ff_vec_append(&v, v.data, SIZE_MAX), -1);
	/* unchanged by the refusals */
	assert_int_equal(v.len, 1);
	assert_int_equal(FF_VEC_AT(&v, struct pair, 0)->b, 2);
	ff_vec_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(push_many),
		cmocka_unit_test(bytes),
		cmocka_unit_test(reserve),
		cmocka_unit_test(overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
