/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* YAFFS2 on-disk pieces: tags ECC, packed tags, object header, xattr area,
 * OOB layouts and the Hamming data ECC. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/nand_ecc.h"
#include "yaffs2/ecc.h"
#include "yaffs2/obj_header.h"
#include "yaffs2/oob_layout.h"
#include "yaffs2/tags.h"
#include "yaffs2/xattr.h"
#include "tests/unit/test_noise.h"

/* Every single flipped bit in the 16 tag bytes is found and repaired. */
static void test_ecc_other_single_bits(void **state)
{
	uint8_t ref[16], data[16];
	struct ff_y2_ecc_other stored, now;

	(void)state;
	test_noise(ref, sizeof(ref), 7);
	ff_y2_ecc_calc_other(ref, 16, &stored);
	for (int bit = 0; bit < 128; bit++) {
		struct ff_y2_ecc_other s = stored;

		memcpy(data, ref, 16);
		data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ff_y2_ecc_calc_other(data, 16, &now);
		assert_int_equal(ff_y2_ecc_correct_other(data, 16, &s, &now), 1);
		assert_memory_equal(data, ref, 16);
	}
}

static void test_ecc_other_double_bit(void **state)
{
	uint8_t data[16];
	struct ff_y2_ecc_other stored, now;

	(void)state;
	test_noise(data, sizeof(data), 9);
	ff_y2_ecc_calc_other(data, 16, &stored);
	data[3] ^= 0x01;
	data[9] ^= 0x40;
	ff_y2_ecc_calc_other(data, 16, &now);
	assert_int_equal(ff_y2_ecc_correct_other(data, 16, &stored, &now), -1);
}

static void test_ecc_other_error_in_ecc(void **state)
{
	uint8_t data[16];
	struct ff_y2_ecc_other stored, now;

	(void)state;
	test_noise(data, sizeof(data), 11);
	ff_y2_ecc_calc_other(data, 16, &stored);
	now = stored;
	stored.line_parity ^= 4;
	assert_int_equal(ff_y2_ecc_correct_other(data, 16, &stored, &now), 1);
	assert_int_equal(stored.line_parity, now.line_parity);
}

static void tags_roundtrip(int big, int ecc)
{
	struct ff_y2_tags t = { 0 }, u;
	uint8_t buf[28];

	t.seq = 0x1234;
	t.obj_id = 300;
	t.has_extra = 1;
	t.extra_parent = 257;
	t.extra_type = FF_Y2_TYPE_FILE;
	t.extra_shrink = 1;
	t.extra_value = 123456;
	memset(buf, 0xff, sizeof(buf));
	ff_y2_tags_pack(&t, buf, big, ecc);
	assert_int_equal(ff_y2_tags_unpack(buf, big, ecc, &u), FF_Y2_TAGS_OK);
	assert_int_equal(u.seq, 0x1234);
	assert_int_equal(u.obj_id, 300);
	assert_int_equal(u.chunk_id, 0);
	assert_true(u.has_extra);
	assert_int_equal(u.extra_parent, 257);
	assert_int_equal(u.extra_type, FF_Y2_TYPE_FILE);
	assert_true(u.extra_shrink);
	assert_false(u.extra_shadows);
	assert_int_equal(u.extra_value, 123456);
	/* The parent id lives in chunk_id with the top bit set. */
	assert_int_equal(buf[big ? 8 : 11] & 0xc0, 0xc0);
}

static void test_tags_roundtrip(void **state)
{
	(void)state;
	tags_roundtrip(0, 1);
	tags_roundtrip(1, 1);
	tags_roundtrip(0, 0);
	tags_roundtrip(1, 0);
}

static void test_tags_fix_and_fail(void **state)
{
	struct ff_y2_tags t = { 0 }, u;
	uint8_t buf[28];

	(void)state;
	t.seq = 0x1000;
	t.obj_id = 257;
	t.chunk_id = 5;
	t.n_bytes = 2048;
	ff_y2_tags_pack(&t, buf, 0, 1);
	buf[6] ^= 0x20;
	assert_int_equal(ff_y2_tags_unpack(buf, 0, 1, &u), FF_Y2_TAGS_FIXED);
	assert_int_equal(u.obj_id, 257);
	assert_int_equal(u.chunk_id, 5);
	buf[1] ^= 0x03;
	assert_int_equal(ff_y2_tags_unpack(buf, 0, 1, &u), FF_Y2_TAGS_UNFIXED);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(ff_y2_tags_unpack(buf, 0, 1, &u), FF_Y2_TAGS_ERASED);
}

static void test_obj_header(void **state)
{
	struct ff_y2_obj_header oh = { 0 }, back;
	uint8_t buf[512];

	(void)state;
	oh.type = FF_Y2_TYPE_SYMLINK;
	oh.parent_id = 1;
	memset(oh.name, 'n', 255);
	oh.mode = S_IFLNK | 0777;
	oh.uid = 1000;
	oh.gid = 100;
	oh.mtime = 0x123456789ll; /* needs the high word */
	oh.atime = oh.ctime = 42;
	memset(oh.alias, 'a', 159);
	oh.file_size = 0x100000005ull;
	for (int big = 0; big < 2; big++) {
		ff_y2_obj_header_encode(&oh, buf, big);
		assert_int_equal(buf[big ? 3 : 0], FF_Y2_TYPE_SYMLINK);
		assert_int_equal(ff_y2_obj_header_decode(buf, big, &back, NULL), 0);
		assert_int_equal(strlen(back.name), 255);
		assert_int_equal(strlen(back.alias), 159);
		assert_int_equal(back.mtime, 0x123456789ll);
		assert_int_equal(back.atime, 42);
		assert_int_equal(back.uid, 1000);
		assert_int_equal(back.file_size, 0x100000005ull);
	}
	buf[0] = 9;
	assert_int_not_equal(ff_y2_obj_header_decode(buf, 0, &back, NULL), 0);
}

/* mkyaffs2image leaves the high words erased: they must read as 0. */
static void test_obj_header_erased_high_words(void **state)
{
	struct ff_y2_obj_header oh = { 0 }, back;
	uint8_t buf[512];

	(void)state;
	oh.type = FF_Y2_TYPE_FILE;
	oh.mtime = 1000;
	oh.file_size = 77;
	ff_y2_obj_header_encode(&oh, buf, 0);
	memset(buf + 464, 0xff, 24);
	memset(buf + 496, 0xff, 4);
	assert_int_equal(ff_y2_obj_header_decode(buf, 0, &back, NULL), 0);
	assert_int_equal(back.mtime, 1000);
	assert_int_equal(back.file_size, 77);
}

static void test_rdev(void **state)
{
	uint32_t r, ma, mi;

	(void)state;
	assert_int_equal(ff_y2_rdev_encode(8, 1, &r), 0);
	assert_int_equal(r, 0x801);
	ff_y2_rdev_decode(r, &ma, &mi);
	assert_int_equal(ma, 8);
	assert_int_equal(mi, 1);
	assert_int_equal(ff_y2_rdev_encode(256, 0, &r), -1);
	assert_int_equal(ff_y2_rdev_encode(1, 300, &r), -1);
}

struct seen {
	int n;
	char names[4][32];
	size_t lens[4];
};

static int on_xattr(void *ctx, const char *name, size_t name_len, const uint8_t *v, size_t len)
{
	struct seen *s = ctx;

	(void)v;
	memcpy(s->names[s->n], name, name_len + 1);
	s->lens[s->n++] = len;
	return 0;
}

static void test_xattr_area(void **state)
{
	const uint8_t v1[] = "hello", v2[] = { 0, 1, 2 };
	struct ff_y2_xattr_in x[2] = { { "user.a", v1, 5 }, { "security.b", v2, 3 } };
	uint8_t area[1536];
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(ff_y2_xattr_encode(x, 2, area, sizeof(area), 1, NULL), 0);
	assert_int_equal(area[3], 4 + 7 + 5); /* big-endian record size */
	assert_int_equal(ff_y2_xattr_walk(area, sizeof(area), 1, on_xattr, &s, NULL), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.names[0], "user.a");
	assert_int_equal(s.lens[0], 5);
	assert_string_equal(s.names[1], "security.b");
	assert_int_equal(s.lens[1], 3);
	assert_int_not_equal(ff_y2_xattr_encode(x, 2, area, 20, 0, NULL), 0);
}

static void test_layout_linux(void **state)
{
	struct ff_y2_geom g = { 2048, 64, 64 };
	struct ff_y2_layout l;
	uint8_t raw[2112], tags[28], back[28];

	(void)state;
	assert_int_equal(ff_y2_layout_init(&l, &g, "linux", NULL, 1, NULL), 0);
	assert_int_equal(l.mtd_free[0].offset, 2);
	assert_int_equal(l.mtd_free[0].len, 38); /* 2..39 */
	assert_int_equal(l.ecc_regions[0].offset, 40);
	assert_int_equal(l.raw_page, 2112);
	test_noise(tags, 28, 3);
	memset(raw, 0xff, sizeof(raw));
	ff_y2_page_put_tags(&l, raw, tags);
	assert_memory_equal(raw + 2048 + 2, tags, 28);
	ff_y2_page_get_tags(&l, raw, back);
	assert_memory_equal(back, tags, 28);

	g = (struct ff_y2_geom){ 4096, 128, 64 };
	assert_int_equal(ff_y2_layout_init(&l, &g, "linux", NULL, 1, NULL), 0);
	assert_int_equal(l.mtd_free_bytes, 78); /* 2..79 */
	assert_int_equal(ff_y2_layout_init(&l, &g, "linux", "bch8", 1, NULL), 0);
	assert_int_equal(l.mtd_free_bytes, 128 - 8 * 13 - 2);
	assert_int_equal(l.kind, FF_Y2_LAYOUT_INBAND);
	assert_true(l.fallback);
}

static void test_layout_small_and_inband(void **state)
{
	struct ff_y2_geom g = { 512, 16, 32 };
	struct ff_y2_layout l;
	struct ff_err e = { 0, "" };

	(void)state;
	/* 8 free bytes: inband, as the kernel does; 496-byte chunks. */
	assert_int_equal(ff_y2_layout_init(&l, &g, "linux", NULL, 1, &e), 0);
	assert_int_equal(l.kind, FF_Y2_LAYOUT_INBAND);
	assert_true(l.fallback);
	assert_int_equal(l.chunk_bytes, 496);
	assert_int_equal(l.raw_page, 512);
	assert_int_equal(l.tags_size, 16);
	assert_int_equal(ff_y2_layout_init(&l, &g, "inband", NULL, 1, &e), 0);
	assert_int_equal(l.chunk_bytes, 496);
	assert_false(l.fallback);
	/* The kernel mounts tags in the OOB only from 1024+32 up. */
	assert_int_not_equal(ff_y2_layout_init(&l, &g, "offset0", NULL, 0, &e), 0);
	assert_non_null(strstr(e.msg, "at least 1024 bytes with at least 32 OOB bytes"));
	assert_int_not_equal(ff_y2_layout_init(&l, &g, "offset0", NULL, 1, NULL), 0);
	g = (struct ff_y2_geom){ 512, 64, 32 };
	assert_int_not_equal(ff_y2_layout_init(&l, &g, "offset0", NULL, 1, NULL), 0);
	assert_int_not_equal(ff_y2_layout_init(&l, &g, "linux", NULL, 1, NULL), 0);
	g = (struct ff_y2_geom){ 1024, 32, 32 };
	assert_int_equal(ff_y2_layout_init(&l, &g, "offset0", NULL, 1, NULL), 0);
	assert_int_equal(l.tags_size, 28);
	g = (struct ff_y2_geom){ 2048, 64, 64 };
	assert_int_equal(ff_y2_layout_init(&l, &g, "inband", NULL, 1, NULL), 0);
	assert_int_equal(l.chunk_bytes, 2032);
	assert_int_equal(l.raw_page, 2048);
	assert_int_equal(l.tags_size, 16);
}

static void full_header(struct ff_y2_obj_header *oh)
{
	memset(oh, 0, sizeof(*oh));
	oh->type = FF_Y2_TYPE_SYMLINK;
	oh->parent_id = 300;
	memset(oh->name, 'n', 255);
	oh->mode = S_IFLNK | 0777;
	oh->uid = 1000;
	oh->gid = 100;
	oh->mtime = 0x123456789ll;
	oh->atime = 42;
	oh->ctime = 0x200000001ll;
	memset(oh->alias, 'a', 159);
	oh->file_size = 0xfffffff0u;
	oh->equiv_id = 77;
	oh->rdev = 0x801;
	oh->shadows_obj = 299;
	oh->is_shrink = 1;
}

/* A 496-byte header (inband tags on 512-byte pages): nothing is written
 * at or past byte 496, and decoding reads nothing there (the buffer is
 * exactly 496 bytes, so ASan would see it); shadows and shrink travel in
 * the inband_* words. */
static void test_obj_header_truncated(void **state)
{
	struct ff_y2_obj_header oh, back;
	uint8_t buf[512], canary[16];
	uint8_t *exact = malloc(496);

	(void)state;
	assert_non_null(exact);
	full_header(&oh);
	assert_int_equal(ff_y2_obj_header_len(496), 496);
	assert_int_equal(ff_y2_obj_header_len(2032), 512);
	for (int big = 0; big < 2; big++) {
		memset(buf, 0xa5, sizeof(buf));
		memset(canary, 0xa5, sizeof(canary));
		assert_int_equal(ff_y2_obj_header_encode_len(&oh, buf, 496, big, NULL), 0);
		assert_memory_equal(buf + 496, canary, 16);
		assert_int_equal(buf[big ? 491 : 488], 299 & 0xff); /* inband_shadowed_obj_id */
		assert_int_equal(buf[big ? 495 : 492], 1);           /* inband_is_shrink */
		memcpy(exact, buf, 496);
		assert_int_equal(ff_y2_obj_header_decode_len(exact, 496, big, &back, NULL), 0);
		assert_int_equal(strlen(back.name), 255);
		assert_int_equal(strlen(back.alias), 159);
		assert_int_equal(back.parent_id, 300);
		assert_int_equal(back.mtime, 0x123456789ll);
		assert_int_equal(back.ctime, 0x200000001ll);
		assert_int_equal(back.file_size, 0xfffffff0u);
		assert_int_equal(back.equiv_id, 77);
		assert_int_equal(back.rdev, 0x801);
		assert_int_equal(back.shadows_obj, 299);
		assert_int_equal(back.is_shrink, 1);
		/* Tags over bytes 496..511 (sequence 0x1000 where file_size_high
		 * was) do not change what a 496-byte decode sees. */
		memset(buf + 496, 0, 16);
		buf[big ? 498 : 497] = 0x10;
		assert_int_equal(ff_y2_obj_header_decode_len(buf, 496, big, &back, NULL), 0);
		assert_int_equal(back.file_size, 0xfffffff0u);
	}
	free(exact);
}

static void test_obj_header_truncated_limits(void **state)
{
	struct ff_y2_obj_header oh, back;
	uint8_t buf[512];
	struct ff_err e = { 0, "" };

	(void)state;
	full_header(&oh);
	oh.file_size = 0x100000000ull;
	assert_int_not_equal(ff_y2_obj_header_encode_len(&oh, buf, 496, 0, &e), 0);
	assert_non_null(strstr(e.msg, "file_size_high"));
	assert_int_equal(ff_y2_obj_header_encode_len(&oh, buf, 512, 0, NULL), 0);
	assert_int_not_equal(ff_y2_obj_header_encode_len(&oh, buf, 495, 0, NULL), 0);
	assert_int_not_equal(ff_y2_obj_header_decode_len(buf, 495, 0, &back, &e), 0);
	assert_non_null(strstr(e.msg, "495 bytes"));
	assert_int_not_equal(ff_y2_obj_header_decode_len(buf, 513, 0, &back, NULL), 0);
}

static void test_split_join(void **state)
{
	struct ff_y2_geom g = { 2048, 64, 64 };
	struct ff_y2_layout l;
	uint8_t raw[2112], data[2048], oob[64], back[2112];

	(void)state;
	assert_int_equal(ff_y2_layout_init(&l, &g, "offset0", NULL, 1, NULL), 0);
	test_noise(raw, 2048, 5);
	memset(raw + 2048, 0xff, 64);
	test_noise(raw + 2048, 28, 6);
	assert_int_equal(ff_y2_page_split(&l, raw, data, oob), 28);
	assert_memory_equal(oob, raw + 2048, 28);
	ff_y2_page_join(&l, data, oob, back);
	assert_memory_equal(back, raw, sizeof(raw));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ecc_other_single_bits),
		cmocka_unit_test(test_ecc_other_double_bit),
		cmocka_unit_test(test_ecc_other_error_in_ecc),
		cmocka_unit_test(test_tags_roundtrip),
		cmocka_unit_test(test_tags_fix_and_fail),
		cmocka_unit_test(test_obj_header),
		cmocka_unit_test(test_obj_header_erased_high_words),
		cmocka_unit_test(test_rdev),
		cmocka_unit_test(test_xattr_area),
		cmocka_unit_test(test_layout_linux),
		cmocka_unit_test(test_layout_small_and_inband),
		cmocka_unit_test(test_obj_header_truncated),
		cmocka_unit_test(test_obj_header_truncated_limits),
		cmocka_unit_test(test_split_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
