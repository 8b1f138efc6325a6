/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS 4.0 byte order: the magic names it, each decoder reads the same
 * fields from a big-endian encoding as from the little-endian one the
 * writer makes, and a big-endian compressor options block is put into the
 * little-endian order compress/ reads, field by field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compress/compress.h"
#include "squashfs/format.h"

/* Reverses each field of an encoding, widths given in bytes. */
static void swap_fields(uint8_t *p, const uint8_t *widths, size_t n)
{
	for (size_t f = 0; f < n; p += widths[f++])
		for (size_t i = 0; i < widths[f] / 2u; i++) {
			uint8_t t = p[i];

			p[i] = p[widths[f] - 1 - i];
			p[widths[f] - 1 - i] = t;
		}
}

static void test_magic(void **state)
{
	(void)state;
	assert_int_equal(sqfs_magic_order((const uint8_t *)"hsqs", 4), SQFS_LE);
	assert_int_equal(sqfs_magic_order((const uint8_t *)"sqsh", 4), SQFS_BE);
	assert_int_equal(sqfs_magic_order((const uint8_t *)"shsq", 4), -1);
	assert_int_equal(sqfs_magic_order((const uint8_t *)"hsq", 3), -1);
}

static void test_superblock(void **state)
{
	static const uint8_t widths[] = {4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 8, 8, 8, 8, 8, 8, 8, 8};
	struct sqfs_super in = {
		.inode_count = 7, .mod_time = 0x01020304, .block_size = 131072,
		.fragment_count = 3, .compressor = 4, .block_log = 17, .flags = 0x0480,
		.id_count = 2, .root_inode = 0x123456789aull, .bytes_used = 0x10000,
		.id_table = 0xff00, .xattr_id_table = SQFS_INVALID_BLK, .inode_table = 0x9000,
		.dir_table = 0xa000, .fragment_table = 0xb000, .export_table = 0xc000,
	};
	struct sqfs_super le, be;
	uint8_t raw[SQFS_SUPER_SIZE];
	struct ff_err err = {0};

	(void)state;
	memset(&le, 0, sizeof(le)); /* padding too: the two are compared whole */
	memset(&be, 0, sizeof(be));
	sqfs_super_encode(&in, raw);
	assert_int_equal(sqfs_super_decode(raw, &le, &err), 0);
	swap_fields(raw, widths, sizeof(widths));
	assert_memory_equal(raw, "sqsh", 4);
	assert_int_equal(sqfs_super_decode(raw, &be, &err), 0);
	assert_int_equal(le.order, SQFS_LE);
	assert_int_equal(be.order, SQFS_BE);
	be.order = SQFS_LE;
	assert_memory_equal(&le, &be, sizeof(le));
	memset(raw + 4, 0, sizeof(raw) - 4);
	assert_int_equal(sqfs_super_decode(raw, &be, &err), -1);
	assert_non_null(strstr(err.msg, "every byte after the magic is zero"));
}

static void test_inode_and_listing(void **state)
{
	static const uint8_t lfile[] = {2, 2, 2, 2, 4, 4, 8, 8, 8, 4, 4, 4, 4};
	static const uint8_t entry[] = {2, 2, 2, 2};
	struct sqfs_inode in = {
		.type = SQFS_LFILE, .mode = 0644, .uid_idx = 1, .gid_idx = 2, .mtime = 99,
		.inode_number = 5, .blocks_start = 0x1122334455ull, .file_size = 0x100000001ull,
		.sparse = 4096, .nlink = 2, .frag_index = SQFS_INVALID_FRAG, .xattr_idx = 3,
	}, le, be;
	struct sqfs_dir_entry e = {.offset = 300, .inode_delta = -2, .type = SQFS_FILE,
				   .name_len = 9}, ele, ebe;
	uint8_t raw[64], draw[SQFS_DIR_ENTRY_SIZE];
	struct ff_err err = {0};

	(void)state;
	sqfs_inode_encode_fixed(&in, raw);
	assert_int_equal(sqfs_inode_decode_fixed(raw, 56, SQFS_LE, &le, &err), 0);
	swap_fields(raw, lfile, sizeof(lfile));
	assert_int_equal(sqfs_inode_decode_fixed(raw, 56, SQFS_BE, &be, &err), 0);
	assert_int_equal(be.type, SQFS_LFILE);
	assert_int_equal(be.mode, 0644);
	assert_int_equal(be.uid_idx, 1);
	assert_int_equal(be.gid_idx, 2);
	assert_int_equal(be.mtime, 99);
	assert_int_equal(be.inode_number, 5);
	assert_int_equal(be.blocks_start, le.blocks_start);
	assert_int_equal(be.blocks_start, 0x1122334455ull);
	assert_int_equal(be.file_size, 0x100000001ull);
	assert_int_equal(be.sparse, 4096);
	assert_int_equal(be.nlink, 2);
	assert_int_equal(be.frag_index, SQFS_INVALID_FRAG);
	assert_int_equal(be.xattr_idx, 3);
	sqfs_dir_entry_encode(&e, draw);
	assert_int_equal(sqfs_dir_entry_decode(draw, SQFS_LE, &ele, &err), 0);
	swap_fields(draw, entry, sizeof(entry));
	assert_int_equal(sqfs_dir_entry_decode(draw, SQFS_BE, &ebe, &err), 0);
	assert_int_equal(ebe.offset, ele.offset);
	assert_int_equal(ebe.offset, 300);
	assert_int_equal(ebe.inode_delta, -2);
	assert_int_equal(ebe.type, SQFS_FILE);
	assert_int_equal(ebe.name_len, 9);
}

static void test_meta_header(void **state)
{
	uint8_t be[2] = {0x80, 0x30}, le[2] = {0x30, 0x80};
	struct ff_err err = {0};
	uint32_t size;
	int raw;

	(void)state;
	assert_int_equal(sqfs_meta_header_decode(be, SQFS_BE, &size, &raw, &err), 0);
	assert_int_equal(size, 48);
	assert_true(raw);
	assert_int_equal(sqfs_meta_header_decode(le, SQFS_LE, &size, &raw, &err), 0);
	assert_int_equal(size, 48);
	/* read the other way round: 0x3080, more than a block holds */
	assert_int_equal(sqfs_meta_header_decode(le, SQFS_BE, &size, &raw, &err), -1);
}

static void test_comp_options(void **state)
{
	uint8_t gzip[8] = {0, 0, 0, 9, 0, 15, 0, 1};
	uint8_t xz[9] = {0, 1, 0, 0, 0, 0, 0, 2, 0xaa};
	uint8_t same[8] = {1, 2, 3, 4, 5, 6, 7, 8}, copy[8];

	(void)state;
	sqfs_comp_options_order(FF_COMP_GZIP, SQFS_BE, gzip, sizeof(gzip));
	assert_memory_equal(gzip, ((uint8_t[]){9, 0, 0, 0, 15, 0, 1, 0}), 8);
	sqfs_comp_options_order(FF_COMP_XZ, SQFS_BE, xz, sizeof(xz));
	assert_memory_equal(xz, ((uint8_t[]){0, 0, 1, 0, 2, 0, 0, 0, 0xaa}), 9);
	memcpy(copy, same, sizeof(same));
	sqfs_comp_options_order(FF_COMP_XZ, SQFS_LE, same, sizeof(same));
	assert_memory_equal(same, copy, sizeof(same));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_magic),
		cmocka_unit_test(test_superblock),
		cmocka_unit_test(test_inode_and_listing),
		cmocka_unit_test(test_meta_header),
		cmocka_unit_test(test_comp_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
