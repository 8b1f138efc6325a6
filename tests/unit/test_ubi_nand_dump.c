/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBI reader on raw NAND dumps (pages followed by their OOB): the
 * layout is detected or taken from the hint, bad-block markers keep a
 * block out of the scan, and a volume reads the same as from the plain
 * image.  Images come from our writer (ubinize's byte-for-byte twin,
 * checked against ubinize in ubi_ubinize.t); the integration tests use
 * ubinize's and the kernel's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/nand.h"
#include "ubi/reader.h"
#include "ubi/writer.h"

#define PEB 16384u
#define VOL_BYTES 40000u

static uint8_t *plain;   /* the plain image */
static size_t plain_len;
static uint8_t content[VOL_BYTES];

/* ff_ubi_open on a descriptor, through a byte source it drops at once
 * (the image keeps its own reference). */
static int ubi_open_fd(int fd, const struct ff_ubi_hint *hint, struct ff_ubi_image **img,
		       struct ff_err *e)
{
	struct ff_bsrc *src = ff_bsrc_from_fd(fd, 0, "dump", e);
	int rc = src ? ff_ubi_open(src, hint, img, e) : -1;

	ff_bsrc_unref(src);
	return rc;
}

static int mem_fd(const uint8_t *p, size_t n)
{
	FILE *f = tmpfile();
	int fd;

	assert_non_null(f);
	fd = dup(fileno(f));
	fclose(f);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	return fd;
}

/* A 512/16K image (sub-pages 256) with one dynamic volume of content. */
static int setup(void **state)
{
	char path[] = "/tmp/ubi_nand_XXXXXX";
	struct ff_ubi_geom g;
	struct ff_ubi_vol v = {.id = 0, .name = "rootfs", .type = FF_UBI_VOL_DYNAMIC,
			       .alignment = 1, .bytes = 4 * 15872};
	struct ff_ubi_write_opts o = {.ec = 0, .ubi_version = 1, .image_seq = 7};
	struct ff_outfile of;
	struct ff_err e = {0};
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	for (size_t i = 0; i < VOL_BYTES; i++)
		content[i] = (uint8_t)(i * 7 + i / 300);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, VOL_BYTES), VOL_BYTES);
	v.fd = fd;
	v.image_size = VOL_BYTES;
	assert_int_equal(ff_ubi_geom_init(&g, PEB, 512, 256, 0, &e), 0);
	assert_int_equal(ff_outfile_open(&of, path, &e), 0);
	assert_int_equal(ff_ubi_write(&of, &g, &o, &v, 1, &e), 0);
	assert_int_equal(ff_outfile_commit(&of, &e), 0);
	close(fd);
	f = fopen(path, "rb");
	assert_non_null(f);
	plain = malloc(1 << 20);
	plain_len = fread(plain, 1, 1 << 20, f);
	fclose(f);
	unlink(path);
	assert_int_equal(plain_len % PEB, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(plain);
	return 0;
}

/* The plain image as a dump with page + oob pages, erased OOB; PEB bad
 * (an index past the last one: none) gets the marker. */
static uint8_t *dump_of(const uint8_t *img, size_t len, uint32_t page, uint32_t oob, size_t bad,
			size_t *out_len)
{
	size_t pages = len / page, n = 0;
	uint8_t *d = malloc(pages * (page + oob));

	assert_non_null(d);
	for (size_t p = 0; p < pages; p++) {
		memcpy(d + n, img + p * page, page);
		memset(d + n + page, 0xff, oob);
		if (p == bad * (PEB / page))
			d[n + page + (page == 512 ? 5 : 0)] = 0;
		n += page + oob;
	}
	*out_len = n;
	return d;
}

/* Opens buf and checks the rootfs volume starts with content. */
static void volume_is(const uint8_t *buf, size_t len, const struct ff_ubi_hint *hint,
		      const uint8_t *want, uint32_t oob)
{
	struct ff_ubi_image *img;
	struct ff_ubi_summary s;
	struct ff_err e = {0};
	int fd = mem_fd(buf, len), out = mem_fd(NULL, 0);
	size_t vol;
	uint8_t *got = malloc(VOL_BYTES);

	assert_int_equal(ubi_open_fd(fd, hint, &img, &e), 0);
	ff_ubi_summary(img, &s);
	assert_int_equal(s.oob_size, oob);
	assert_int_equal(s.peb_size, PEB);
	assert_int_equal(ff_ubi_volume_select(img, NULL, &vol, &e), 0);
	assert_int_equal(ff_ubi_volume_copy(img, vol, out, &e), 0);
	assert_int_equal(pread(out, got, VOL_BYTES, 0), VOL_BYTES);
	assert_memory_equal(got, want, VOL_BYTES);
	ff_ubi_close(img);
	free(got);
	close(fd);
	close(out);
}

static void plain_and_raw_read_alike(void **state)
{
	size_t n;
	uint8_t *d = dump_of(plain, plain_len, 512, 16, SIZE_MAX, &n);

	(void)state;
	volume_is(plain, plain_len, NULL, content, 0);
	volume_is(d, n, NULL, content, 16);
	volume_is(d, n, &(struct ff_ubi_hint){0, 512, 16}, content, 16);
	volume_is(d, n, &(struct ff_ubi_hint){PEB, 512, 0}, content, 16);
	free(d);
}

/* A newer copy of LEB 0 (other data) at the end: read unless its block
 * carries the bad-block marker. */
static void bad_block_is_skipped(void **state)
{
	size_t len = plain_len + PEB, n, last = plain_len / PEB;
	uint8_t *img = malloc(len), *d, other[VOL_BYTES];
	/* sub-pages of 256: the VID header at 256, the data at the next page */
	uint32_t vid_offs = 256, data_offs = 512;
	struct ff_ubi_vid_hdr vid;
	struct ff_ubi_image *ui;
	struct ff_err e = {0};
	int fd;

	(void)state;
	memcpy(img, plain, plain_len);
	memcpy(img + plain_len, plain + 2 * PEB, PEB); /* PEB 2 holds rootfs LEB 0 */
	assert_int_equal(ff_ubi_vid_hdr_decode(img + plain_len + vid_offs, &vid), FF_UBI_HDR_OK);
	vid.sqnum += 1000;
	ff_ubi_vid_hdr_encode(&vid, img + plain_len + vid_offs);
	memset(img + plain_len + data_offs, 0x5a, PEB - data_offs);
	memcpy(other, content, VOL_BYTES);
	memset(other, 0x5a, PEB - data_offs);

	d = dump_of(img, len, 512, 16, last, &n);
	volume_is(d, n, NULL, content, 16);
	fd = mem_fd(d, n);
	assert_int_equal(ubi_open_fd(fd, NULL, &ui, &e), 0);
	{
		struct ff_ubi_summary s;
		ff_ubi_summary(ui, &s);
		assert_int_equal(s.marked_bad, 1);
		assert_int_equal(ff_ubi_problem_count(ui), 0);
	}
	ff_ubi_close(ui);
	close(fd);
	free(d);

	d = dump_of(img, len, 512, 16, SIZE_MAX, &n);
	volume_is(d, n, NULL, other, 16);
	free(d);
	free(img);
}

static void wrong_hint_fails(void **state)
{
	size_t n;
	uint8_t *d = dump_of(plain, plain_len, 512, 16, SIZE_MAX, &n);
	struct ff_ubi_image *img;
	struct ff_err e = {0};
	int fd = mem_fd(d, n);

	(void)state;
	assert_int_equal(ubi_open_fd(fd, &(struct ff_ubi_hint){0, 2048, 64}, &img, &e), -1);
	assert_true(e.msg[0] != '\0');
	close(fd);
	free(d);
}

static void nand_facts(void **state)
{
	uint8_t oob[16];
	uint32_t oobs[2];
	size_t n;
	const uint32_t *pages = ff_nand_page_sizes(&n);

	(void)state;
	assert_true(n >= 6);
	assert_int_equal(pages[0], 2048);
	assert_int_equal(ff_nand_oob_sizes(4096, oobs), 2);
	assert_int_equal(oobs[0], 128);
	assert_int_equal(oobs[1], 256);
	memset(oob, 0xff, sizeof(oob));
	assert_int_equal(ff_nand_block_marked_bad(oob, 16, 2048), 0);
	oob[5] = 0;
	assert_int_equal(ff_nand_block_marked_bad(oob, 16, 2048), 0);
	assert_int_equal(ff_nand_block_marked_bad(oob, 16, 512), 1);
	oob[5] = 0xff;
	oob[0] = 0x00;
	assert_int_equal(ff_nand_block_marked_bad(oob, 16, 2048), 1);
	assert_int_equal(ff_nand_block_marked_bad(oob, 0, 2048), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nand_facts),
		cmocka_unit_test(plain_and_raw_read_alike),
		cmocka_unit_test(bad_block_is_skipped),
		cmocka_unit_test(wrong_hint_fails),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
