/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/size.c: the one size syntax (common/size.h), as a table of what
 * is accepted with its value and what is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/size.h"

static const struct {
	const char *in;
	uint64_t v;
} good[] = {
	{"0", 0},
	{"4096", 4096},
	{"010", 10}, /* leading zeros are decimal: never octal */
	{"0x1000", 4096},
	{"0X1f", 31},
	{"0x10K", 16384},
	{"128K", 128 << 10},
	{"128k", 128 << 10},
	{"1M", 1 << 20},
	{"1m", 1 << 20}, /* suffixes are case-insensitive */
	{"2G", 2ull << 30},
	{"2g", 2ull << 30},
	{"1T", 1ull << 40},
	{"3k", 3072},
	{"18446744073709551615", UINT64_MAX},
	{"16777215T", 16777215ull << 40},
	{"128KiB", 128 << 10}, /* mtd-utils' spelling */
	{"1MiB", 1 << 20},
	{"2gib", 2ull << 30},
	{"0x20KiB", 32 << 10},
	{"1TiB", 1ull << 40},
};

static const char *const bad[] = {
	"", "-1", "+1", " 1", "1 ", "K", "0x", "0xg", "12Q", "1MB", "1KB", "1B", "1iB", "1Ki", "1KiBB", "1K iB", "1.5M", "1e3",
	"08x", "99999999999999999999", "18446744073709551616", "16777216T", "20000000000000T",
	"0x10000000000000000",
};

static void accepted(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t v = 12345;

		if (ff_parse_size(good[i].in, &v) != 0 || v != good[i].v)
			fail_msg("'%s': got %llu, want %llu", good[i].in, (unsigned long long)v,
				 (unsigned long long)good[i].v);
	}
}

static void refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 12345;

		if (ff_parse_size(bad[i], &v) != -1 || v != 12345)
			fail_msg("'%s' accepted as %llu", bad[i], (unsigned long long)v);
	}
}

static void counts_take_no_suffix(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(ff_parse_uint("010", &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(ff_parse_uint("0x20", &v), 0);
	assert_int_equal(v, 32);
	assert_int_equal(ff_parse_uint("1K", &v), -1);
	assert_int_equal(ff_parse_uint("", &v), -1);
	assert_int_equal(ff_parse_uint("-3", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepted),
		cmocka_unit_test(refused),
		cmocka_unit_test(counts_take_no_suffix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
