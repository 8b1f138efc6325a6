/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/bytes.c: ff_is_zero / ff_all_bytes, including the empty run
 * (uniform: 1) that the five copies it replaced disagreed on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/bytes.h"

static void empty_is_zero(void **state)
{
	(void)state;
	assert_int_equal(ff_is_zero(NULL, 0), 1);
	assert_int_equal(ff_all_bytes(NULL, 0, 0xff), 1);
}

static void runs(void **state)
{
	uint8_t b[4096];

	(void)state;
	memset(b, 0, sizeof(b));
	assert_int_equal(ff_is_zero(b, sizeof(b)), 1);
	assert_int_equal(ff_is_zero(b, 1), 1);
	b[4095] = 1;
	assert_int_equal(ff_is_zero(b, sizeof(b)), 0);
	assert_int_equal(ff_is_zero(b, 4095), 1);
	b[0] = 1;
	assert_int_equal(ff_is_zero(b, 1), 0);
	memset(b, 0xff, sizeof(b));
	assert_int_equal(ff_all_bytes(b, sizeof(b), 0xff), 1);
	assert_int_equal(ff_is_zero(b, sizeof(b)), 0);
	b[2048] = 0xfe;
	assert_int_equal(ff_all_bytes(b, sizeof(b), 0xff), 0);
}

/* Names with lengths: byte order, a prefix first, nothing read past either
 * length (the bytes after are different on purpose). */
static void bytes_cmp(void **state)
{
	(void)state;
	assert_int_equal(ff_bytes_cmp("abcX", 3, "abcY", 3), 0);
	assert_true(ff_bytes_cmp("ab", 2, "abc", 3) < 0);
	assert_true(ff_bytes_cmp("abc", 3, "ab", 2) > 0);
	assert_true(ff_bytes_cmp("abd", 3, "abc", 3) > 0);
	assert_true(ff_bytes_cmp("\x80", 1, "z", 1) > 0);
	assert_int_equal(ff_bytes_cmp("x", 0, "y", 0), 0);
	assert_true(ff_bytes_cmp("", 0, "a", 1) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_is_zero),
		cmocka_unit_test(runs),
		cmocka_unit_test(bytes_cmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
