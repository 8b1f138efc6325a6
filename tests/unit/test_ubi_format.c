/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ubi/: UBI's CRC through zlib, and the headers and volume-table record
 * encoded and decoded against bytes ubinize (mtd-utils 2.1.5) wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ubi/media.h"
#include "ubi/writer.h"

/* PEB 0 of `ubinize -p 128KiB -m 2048 -Q 12345`: its EC header... */
static const uint8_t ec_ref[64] = {
	0x55, 0x42, 0x49, 0x23, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x30, 0x39, 0, 0, 0, 0,
	[60] = 0x59, 0x2f, 0x42, 0x0d,
};
/* ...and its VID header at 2048: layout volume, LEB 0, compat "reject". */
static const uint8_t vid_ref[64] = {
	0x55, 0x42, 0x49, 0x21, 0x01, 0x01, 0x00, 0x05, 0x7f, 0xff, 0xef, 0xff,
	[60] = 0xb8, 0x25, 0x64, 0xa8,
};

static void crc_check_value(void **state)
{
	(void)state;
	/* crc32_le(~0, "123456789") without the final inversion is the
	 * complement of the standard CRC-32 check value 0xCBF43926. */
	assert_int_equal(ff_ubi_crc32("123456789", 9), 0x340BC6D9u);
	assert_int_equal(ff_ubi_crc32("", 0), 0xFFFFFFFFu);
}

static void ec_hdr_matches_ubinize(void **state)
{
	struct ff_ubi_ec_hdr h = {.version = 1, .ec = 0, .vid_hdr_offset = 2048,
				  .data_offset = 4096, .image_seq = 12345};
	struct ff_ubi_ec_hdr d;
	uint8_t out[64];

	(void)state;
	ff_ubi_ec_hdr_encode(&h, out);
	assert_memory_equal(out, ec_ref, 64);
	assert_int_equal(ff_ubi_ec_hdr_decode(ec_ref, &d), FF_UBI_HDR_OK);
	assert_int_equal(d.image_seq, 12345);
	assert_int_equal(d.data_offset, 4096);
	out[20] ^= 1;
	assert_int_equal(ff_ubi_ec_hdr_decode(out, &d), FF_UBI_HDR_BAD_CRC);
	memset(out, 0xFF, sizeof(out));
	assert_int_equal(ff_ubi_ec_hdr_decode(out, &d), FF_UBI_HDR_ERASED);
	out[0] = 0;
	assert_int_equal(ff_ubi_ec_hdr_decode(out, &d), FF_UBI_HDR_BAD_MAGIC);
}

static void vid_hdr_matches_ubinize(void **state)
{
	struct ff_ubi_vid_hdr h = {.version = 1, .vol_type = FF_UBI_VOL_DYNAMIC,
				   .compat = FF_UBI_COMPAT_REJECT,
				   .vol_id = FF_UBI_LAYOUT_VOL_ID};
	struct ff_ubi_vid_hdr d;
	uint8_t out[64];

	(void)state;
	ff_ubi_vid_hdr_encode(&h, out);
	assert_memory_equal(out, vid_ref, 64);
	h.sqnum = 0x0102030405060708ull;
	h.lnum = 7;
	ff_ubi_vid_hdr_encode(&h, out);
	assert_int_equal(ff_ubi_vid_hdr_decode(out, &d), FF_UBI_HDR_OK);
	assert_true(d.sqnum == 0x0102030405060708ull);
	assert_int_equal(d.lnum, 7);
	assert_int_equal(out[40], 0x01); /* big-endian */
}

static void vtbl_record_round_trip(void **state)
{
	struct ff_ubi_vtbl_record r = {.reserved_pebs = 9, .alignment = 1, .vol_type = 1,
				       .name_len = 6, .name = "rootfs",
				       .flags = FF_UBI_FLAG_AUTORESIZE};
	struct ff_ubi_vtbl_record d;
	uint8_t out[FF_UBI_VTBL_RECORD_SIZE];

	(void)state;
	ff_ubi_vtbl_record_encode(&r, out);
	assert_int_equal(ff_ubi_vtbl_record_decode(out, &d), 0);
	assert_string_equal(d.name, "rootfs");
	assert_int_equal(d.reserved_pebs, 9);
	assert_int_equal(d.flags, FF_UBI_FLAG_AUTORESIZE);
	out[16] = 'R';
	assert_int_equal(ff_ubi_vtbl_record_decode(out, &d), -1);
}

static void geometry_as_ubinize(void **state)
{
	struct ff_ubi_geom g;
	struct ff_err e = {0};

	(void)state;
	assert_int_equal(ff_ubi_geom_init(&g, 16384, 512, 256, 0, &e), 0);
	assert_int_equal(g.vid_hdr_offs, 256);
	assert_int_equal(g.data_offs, 512);
	assert_int_equal(g.leb_size, 15872);
	assert_int_equal(g.max_volumes, 92);
	assert_int_equal(ff_ubi_geom_init(&g, 131072, 2048, 0, 0, &e), 0);
	assert_int_equal(g.data_offs, 4096);
	assert_int_equal(g.max_volumes, 128);
	assert_int_equal(ff_ubi_geom_init(&g, 131072, 2048, 0, 8, &e), -1);
	assert_int_equal(ff_ubi_geom_init(&g, 131072, 3000, 0, 0, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc_check_value),
		cmocka_unit_test(ec_hdr_matches_ubinize),
		cmocka_unit_test(vid_hdr_matches_ubinize),
		cmocka_unit_test(vtbl_record_round_trip),
		cmocka_unit_test(geometry_as_ubinize),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
