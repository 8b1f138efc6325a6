/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The device-independent parts of the MTD writer (mtd/mtd.h): where
 * image blocks land around bad blocks, the refusal of a device too small,
 * the YAFFS2 page map (yaffs2/flash_map.h: tags to AUTO_OOB bytes and
 * back), the page map an image's format gives (image/image.h) and the
 * layout options of flashfs flash/dump (flashfs/flash_opts.h).  Writing to a real MTD device is covered
 * by the nandsim tests (tests/integration/nandsim_flash.t). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "flashfs/flash_opts.h"
#include "image/image.h"
#include "mtd/mtd.h"
#include "yaffs2/flash_map.h"

static void plan_without_bad_blocks_is_identity(void **state)
{
	uint8_t bad[8] = {0};
	uint32_t map[8];
	uint32_t i;

	(void)state;
	assert_int_equal(ff_mtd_plan(bad, 8, 8, map, NULL), 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(map[i], i);
}

static void plan_shifts_past_bad_blocks(void **state)
{
	uint8_t bad[8] = {1, 0, 1, 1, 0, 0, 1, 0};
	uint32_t map[4];

	(void)state;
	assert_int_equal(ff_mtd_plan(bad, 8, 4, map, NULL), 0);
	assert_int_equal(map[0], 1);
	assert_int_equal(map[1], 4);
	assert_int_equal(map[2], 5);
	assert_int_equal(map[3], 7);
}

static void plan_refuses_too_small_device(void **state)
{
	uint8_t bad[6] = {0, 1, 0, 0, 1, 0};
	uint32_t map[5];
	struct ff_err err = {0};

	(void)state;
	assert_int_equal(ff_mtd_plan(bad, 6, 5, map, &err), -1);
	assert_non_null(strstr(err.msg, "needs 5 erase blocks"));
	assert_non_null(strstr(err.msg, "4 good of 6 (2 bad)"));
}

/* A 2K/64 linux-layout page: tags at raw OOB 2.., ECC bytes left 0xff. */
static void y2_map_round_trip(void **state)
{
	struct ff_y2_geom g = {2048, 64, 64};
	struct ff_y2_layout lay;
	struct ff_pagemap map;
	uint8_t raw[2112], back[2112], data[2048], oob[64];
	uint32_t i;

	(void)state;
	assert_int_equal(ff_y2_layout_init(&lay, &g, "linux", NULL, 1, NULL), 0);
	ff_y2_pagemap(&lay, &map);
	assert_int_equal(map.raw_page, 2112);
	assert_int_equal(map.oob_len, 28);
	for (i = 0; i < 2048; i++)
		raw[i] = (uint8_t)(i * 7);
	memset(raw + 2048, 0xff, 64);
	for (i = 0; i < 28; i++)
		raw[2048 + 2 + i] = (uint8_t)(0x40 + i);
	map.split(map.ctx, raw, data, oob);
	assert_memory_equal(data, raw, 2048);
	assert_memory_equal(oob, raw + 2050, 28);
	map.join(map.ctx, data, oob, back);
	assert_memory_equal(back, raw, sizeof(raw));
}

static int temp_file(const void *buf, size_t len)
{
	char path[] = "/tmp/test_yaffs2_mtd.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	return fd;
}

/* The page map of the image in fd: 1 map, 0 plain data, -1 refused. */
static int flash_map_of(int fd, struct ff_pagemap *map)
{
	struct ff_bsrc *src = ff_bsrc_from_fd(fd, 0, "image", NULL);
	int rc;

	assert_non_null(src);
	rc = ff_image_flash_map(src, NULL, NULL, map, NULL);
	ff_bsrc_unref(src);
	return rc;
}

static void image_kind_detects_squashfs_and_junk(void **state)
{
	uint8_t buf[8192];
	struct ff_pagemap map;
	int fd;
	size_t i;

	(void)state;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "hsqs", 4);
	fd = temp_file(buf, sizeof(buf));
	assert_int_equal(flash_map_of(fd, &map), 0);
	close(fd);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + (i >> 7));
	fd = temp_file(buf, sizeof(buf));
	assert_int_equal(flash_map_of(fd, &map), -1);
	close(fd);
}

/* The user's layout needs no image: a dump's map, checked against the
 * device it is read from. */
static void layout_map_fits_the_device(void **state)
{
	struct ff_flash_layout lay = {.oob_layout = "linux"};
	struct ff_flash_dev dev = {"/dev/mtd9", 2048, 64, 38, 64}, small = dev;
	struct ff_pagemap map;
	struct ff_err err = {0};

	(void)state;
	assert_int_equal(ff_image_flash_map(NULL, &lay, &dev, &map, &err), 1);
	assert_int_equal(map.raw_page, 2112);
	assert_int_equal(map.oob_len, 28);
	assert_string_equal(map.what, "YAFFS2 data + tags");
	ff_pagemap_release(&map);
	small.page_size = 4096;
	small.oob_size = 128;
	lay.page_size = 2048; /* the image's, not the device's */
	assert_int_equal(ff_image_flash_map(NULL, &lay, &small, &map, &err), -1);
	assert_non_null(strstr(err.msg, "geometry mismatch"));
	assert_non_null(strstr(err.msg, "/dev/mtd9 has 4096+128-byte pages"));
}

static void options_parse_and_reject(void **state)
{
	struct ff_flash_layout spec = {0};
	struct ff_err err = {0};

	(void)state;
	assert_int_equal(ff_flash_layout_option(&spec, FF_FLASH_OPT_BASE + 1, "4096", &err), 1);
	assert_int_equal(spec.page_size, 4096);
	assert_int_equal(ff_flash_layout_option(&spec, FF_FLASH_OPT_BASE + 4, "inband", &err), 1);
	assert_string_equal(spec.oob_layout, "inband");
	assert_int_equal(ff_flash_layout_option(&spec, FF_FLASH_OPT_BASE + 3, "6x", &err), -1);
	assert_non_null(strstr(err.msg, "--pages-per-block: '6x'"));
	assert_int_equal(ff_flash_layout_option(&spec, 'q', NULL, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_without_bad_blocks_is_identity),
		cmocka_unit_test(plan_shifts_past_bad_blocks),
		cmocka_unit_test(plan_refuses_too_small_device),
		cmocka_unit_test(y2_map_round_trip),
		cmocka_unit_test(image_kind_detects_squashfs_and_junk),
		cmocka_unit_test(layout_map_fits_the_device),
		cmocka_unit_test(options_parse_and_reject),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
