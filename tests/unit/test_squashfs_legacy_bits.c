/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* squashfs_legacy/bits.c: the bit fields of the pre-4.0 inode, directory
 * and entry headers, decoded from bytes worked out by hand for both byte
 * orders.  A little-endian image fills a field from the lowest bit of the
 * lowest byte; a big-endian one from the highest bit of the lowest byte
 * (so the 4-bit type is the low nibble of byte 0 in one, the high nibble
 * in the other). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "squashfs_legacy/legacy.h"

/* 3.x directory inode, first word: type 1, mode 0755 (0x1ed), uid 2,
 * gid 3.  LE: 1 | 0x1ed << 4 | 2 << 16 | 3 << 24 = 0x03021ed1;
 * BE: type and mode fill the first 16 bits from the top: 0x11ed. */
static void base_header_3(void **state)
{
	static const uint8_t le[4] = {0xd1, 0x1e, 0x02, 0x03};
	static const uint8_t be[4] = {0x11, 0xed, 0x02, 0x03};

	(void)state;
	assert_int_equal(lsq_bits(le, 0, 4, 0), 1);
	assert_int_equal(lsq_bits(le, 4, 12, 0), 0755);
	assert_int_equal(lsq_bits(le, 16, 8, 0), 2);
	assert_int_equal(lsq_bits(le, 24, 8, 0), 3);
	assert_int_equal(lsq_bits(be, 0, 4, 1), 1);
	assert_int_equal(lsq_bits(be, 4, 12, 1), 0755);
	assert_int_equal(lsq_bits(be, 16, 8, 1), 2);
	assert_int_equal(lsq_bits(be, 24, 8, 1), 3);
}

/* 3.x directory inode, bits 128..159: file_size (19) 0x12345, offset
 * (13) 0x1abc.  LE word: 0x12345 | 0x1abc << 19 = 0xd5e12345, stored
 * 45 23 e1 d5.  BE word: 0x12345 << 13 | 0x1abc = 0x2468babc. */
static void dir_size_offset_3(void **state)
{
	uint8_t le[20] = {0}, be[20] = {0};

	(void)state;
	le[16] = 0x45, le[17] = 0x23, le[18] = 0xe1, le[19] = 0xd5;
	be[16] = 0x24, be[17] = 0x68, be[18] = 0xba, be[19] = 0xbc;
	assert_int_equal(lsq_bits(le, 128, 19, 0), 0x12345);
	assert_int_equal(lsq_bits(le, 147, 13, 0), 0x1abc);
	assert_int_equal(lsq_bits(be, 128, 19, 1), 0x12345);
	assert_int_equal(lsq_bits(be, 147, 13, 1), 0x1abc);
}

/* 1.x directory inode (14 bytes), every field off byte boundaries after
 * the first: type 1, mode 0644, uid 5 (4 bits), gid 15 (4 bits: "same as
 * uid"), file_size 1234 (19), offset 0x123 (13), mtime 0x5f5e1000,
 * start 0xabcdef (24).  LE byte 0 = 1 | (0644 & 15) << 4 = 0x41, byte 2 =
 * 5 | 15 << 4; BE byte 0 = 1 << 4 | 0644 >> 8 = 0x11, byte 2 = 5 << 4 | 15. */
static void dir_header_1(void **state)
{
	static const uint8_t le[14] = {0x41, 0x1a, 0xf5, 0xd2, 0x04, 0x18, 0x09,
				       0x00, 0x10, 0x5e, 0x5f, 0xef, 0xcd, 0xab};
	static const uint8_t be[14] = {0x11, 0xa4, 0x5f, 0x00, 0x9a, 0x41, 0x23,
				       0x5f, 0x5e, 0x10, 0x00, 0xab, 0xcd, 0xef};
	const uint8_t *img[2] = {le, be};

	(void)state;
	for (int big = 0; big < 2; big++) {
		const uint8_t *h = img[big];

		assert_int_equal(lsq_bits(h, 0, 4, big), 1);
		assert_int_equal(lsq_bits(h, 4, 12, big), 0644);
		assert_int_equal(lsq_bits(h, 16, 4, big), 5);
		assert_int_equal(lsq_bits(h, 20, 4, big), 15);
		assert_int_equal(lsq_bits(h, 24, 19, big), 1234);
		assert_int_equal(lsq_bits(h, 43, 13, big), 0x123);
		assert_int_equal(lsq_sbits(h, 56, 32, big), 0x5f5e1000);
		assert_int_equal(lsq_bits(h, 88, 24, big), 0xabcdef);
	}
}

/* 3.x directory entry: offset 0x0abc, type 2, name length - 1 = 6,
 * inode number delta -2.  LE: 0x0abc | 2 << 13 = 0x4abc -> bc 4a, then
 * 06, then fe ff.  BE: 0x0abc << 3 | 2 = 0x55e2 -> 55 e2, 06, ff fe. */
static void dir_entry_3(void **state)
{
	static const uint8_t le[5] = {0xbc, 0x4a, 0x06, 0xfe, 0xff};
	static const uint8_t be[5] = {0x55, 0xe2, 0x06, 0xff, 0xfe};

	(void)state;
	assert_int_equal(lsq_bits(le, 0, 13, 0), 0x0abc);
	assert_int_equal(lsq_bits(le, 13, 3, 0), 2);
	assert_int_equal(lsq_bits(le, 16, 8, 0), 6);
	assert_int_equal(lsq_sbits(le, 24, 16, 0), -2);
	assert_int_equal(lsq_bits(be, 0, 13, 1), 0x0abc);
	assert_int_equal(lsq_bits(be, 13, 3, 1), 2);
	assert_int_equal(lsq_bits(be, 16, 8, 1), 6);
	assert_int_equal(lsq_sbits(be, 24, 16, 1), -2);
}

/* 2.x long directory index: index (27 bits) then start_block (29): the
 * second straddles bytes 3..6, and the name length (8) ends the 64 bits.
 * index 0x10, start 0x1234567.  LE value: 0x10 | 0x1234567 << 27; BE,
 * counted from the top: 0x10 << (64 - 27) | 0x1234567 << (64 - 56). */
static void dir_index_2(void **state)
{
	uint64_t lev = 0x10 | (uint64_t)0x1234567 << 27, bev = (uint64_t)0x10 << 37 | (uint64_t)0x1234567 << 8;
	uint8_t le[8], be[8];

	(void)state;
	for (int i = 0; i < 8; i++) {
		le[i] = (uint8_t)(lev >> (8 * i));
		be[i] = (uint8_t)(bev >> (8 * (7 - i)));
	}
	assert_int_equal(lsq_bits(le, 0, 27, 0), 0x10);
	assert_int_equal(lsq_bits(le, 27, 29, 0), 0x1234567);
	assert_int_equal(lsq_bits(be, 0, 27, 1), 0x10);
	assert_int_equal(lsq_bits(be, 27, 29, 1), 0x1234567);
}

/* Whole 64-bit fields (3.x positions) come out as plain integers. */
static void whole_64(void **state)
{
	static const uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};

	(void)state;
	assert_true(lsq_bits(b, 0, 64, 0) == 0x0807060504030201ull);
	assert_true(lsq_bits(b, 0, 64, 1) == 0x0102030405060708ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(base_header_3),
		cmocka_unit_test(dir_size_offset_3),
		cmocka_unit_test(dir_header_1),
		cmocka_unit_test(dir_entry_3),
		cmocka_unit_test(dir_index_2),
		cmocka_unit_test(whole_64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
