/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The YAFFS2 scan on a hand-built "used partition": blocks out of order,
 * rewritten chunks, a shrink header, an unlinked object, a shadowing
 * rename, a bad block, a corrected and an uncorrectable tags error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fs.h"
#include "yaffs2/obj_header.h"
#include "yaffs2/oob_layout.h"
#include "yaffs2/reader.h"
#include "yaffs2/tags.h"

#define PPB 4
#define NBLOCKS 5
#define RAW 2112

struct img {
	struct ff_y2_layout lay;
	uint8_t buf[NBLOCKS * PPB * RAW];
};

static uint8_t *page_at(struct img *im, int block, int page)
{
	return im->buf + (size_t)(block * PPB + page) * RAW;
}

static void put(struct img *im, int block, int page, struct ff_y2_tags *t, const uint8_t *data,
		size_t len)
{
	uint8_t *raw = page_at(im, block, page);
	uint8_t tb[28];

	memcpy(raw, data, len);
	ff_y2_tags_pack(t, tb, 0, 1);
	ff_y2_page_put_tags(&im->lay, raw, tb);
}

/* The header of a regular file named `name` in `parent`. */
static struct ff_y2_obj_header file_header(uint32_t parent, const char *name, uint64_t size,
					   uint32_t shadows, uint32_t shrink)
{
	struct ff_y2_obj_header oh = { 0 };

	oh.type = FF_Y2_TYPE_FILE;
	oh.parent_id = parent;
	strcpy(oh.name, name);
	oh.mode = S_IFREG | 0644;
	oh.file_size = size;
	oh.shadows_obj = shadows;
	oh.is_shrink = shrink;
	return oh;
}

static void header(struct img *im, int block, int page, uint32_t seq, uint32_t id,
		   uint32_t parent, const char *name, uint64_t size, uint32_t shadows, int shrink)
{
	struct ff_y2_obj_header oh = file_header(parent, name, size, shadows, (uint32_t)shrink);
	struct ff_y2_tags t = { 0 };
	uint8_t chunk[2048];

	memset(chunk, 0xff, sizeof(chunk));
	ff_y2_obj_header_encode(&oh, chunk, 0);
	t.seq = seq;
	t.obj_id = id;
	t.has_extra = 1;
	t.extra_parent = parent;
	t.extra_type = FF_Y2_TYPE_FILE;
	t.extra_shrink = shrink;
	t.extra_shadows = shadows != 0;
	t.extra_value = (uint32_t)size;
	put(im, block, page, &t, chunk, sizeof(chunk));
}

static void data(struct img *im, int block, int page, uint32_t seq, uint32_t id, uint32_t chunk,
		 char fillc, uint32_t n)
{
	struct ff_y2_tags t = { 0 };
	uint8_t buf[2048];

	memset(buf, fillc, n);
	t.seq = seq;
	t.obj_id = id;
	t.chunk_id = chunk;
	t.n_bytes = n;
	put(im, block, page, &t, buf, n);
}

static void build(struct img *im)
{
	struct ff_y2_geom g = { 2048, 64, PPB };

	memset(im->buf, 0xff, sizeof(im->buf));
	assert_int_equal(ff_y2_layout_init(&im->lay, &g, "linux", NULL, 1, NULL), 0);
	/* Block 1 is the oldest. */
	header(im, 1, 0, 0x1000, 257, 1, "f", 4096, 0, 0);
	data(im, 1, 1, 0x1000, 257, 1, 'A', 2048);
	data(im, 1, 2, 0x1000, 257, 2, 'B', 2048);
	header(im, 1, 3, 0x1000, 258, 1, "gone", 0, 0, 0);
	/* Block 0 is newer: chunk 1 rewritten, the file shrunk, 258 unlinked. */
	data(im, 0, 0, 0x1001, 257, 1, 'C', 2048);
	header(im, 0, 1, 0x1001, 257, 1, "f", 100, 0, 1);
	header(im, 0, 2, 0x1001, 258, FF_Y2_OBJID_UNLINKED, "gone", 0, 0, 0);
	header(im, 0, 3, 0x1001, 259, 1, "g", 5000, 0, 0);
	/* Block 2, newest: f grows again, 260 replaces 259 by rename. */
	data(im, 2, 0, 0x1002, 257, 2, 'D', 10);
	header(im, 2, 1, 0x1002, 260, 1, "g2", 7, 259, 0);
	page_at(im, 2, 1)[2048 + 2 + 5] ^= 0x10; /* one flipped tags bit */
	header(im, 2, 2, 0x1002, 261, 1, "broken", 0, 0, 0);
	page_at(im, 2, 2)[2048 + 2 + 4] ^= 0x03; /* two: uncorrectable */
	/* Block 4 is marked bad; its contents must be ignored. */
	header(im, 4, 0, 0x1003, 262, 1, "bad", 0, 0, 0);
	page_at(im, 4, 0)[2048] = 0x00;
}

static struct ff_fs *open_img(struct img *im, char *path)
{
	struct ff_open_opts o = { .flash = { .pages_per_block = PPB } };
	struct ff_err err = { 0, "" };
	struct ff_fs *fs = NULL;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, im->buf, sizeof(im->buf)), (ssize_t)sizeof(im->buf));
	close(fd);
	if (ff_yaffs2_open(path, &o, &fs, &err))
		fail_msg("open: %s", err.msg);
	return fs;
}

struct names {
	char list[256];
};

static int on_entry(void *ctx, const char *name, size_t len, uint64_t h, uint32_t mode,
		    uint64_t cookie)
{
	struct names *n = ctx;

	(void)h;
	(void)mode;
	(void)cookie;
	strncat(n->list, name, len);
	strcat(n->list, " ");
	return 0;
}

static void on_problem(void *ctx, const char *what)
{
	(void)what;
	(*(int *)ctx)++;
}

struct infos {
	char fixed[16], bad[16];
};

static void on_info(void *ctx, const struct ff_info_item *it)
{
	struct infos *i = ctx;

	if (it->type != FF_INFO_UINT)
		return;
	if (!strcmp(it->key, "tags_ecc_fixed"))
		snprintf(i->fixed, sizeof(i->fixed), "%llu", (unsigned long long)it->num);
	if (!strcmp(it->key, "bad_blocks"))
		snprintf(i->bad, sizeof(i->bad), "%llu", (unsigned long long)it->num);
}

static void test_used_partition(void **state)
{
	static struct img im;
	char path[] = "/tmp/y2scan.XXXXXX";
	struct names n = { "" };
	struct infos inf = { "", "" };
	struct ff_stat st;
	uint64_t h;
	uint8_t buf[4096];
	int problems = 0;
	struct ff_fs *fs;

	(void)state;
	build(&im);
	fs = open_img(&im, path);
	assert_int_equal(fs->ops->readdir(fs, 1, 0, on_entry, &n), 0);
	assert_string_equal(n.list, "f g2 ");
	assert_int_equal(ff_fs_resolve(fs, "f", &h), 0);
	assert_int_equal(fs->ops->getattr(fs, h, &st), 0);
	assert_int_equal(st.size, 2058);
	assert_int_equal(fs->ops->read(fs, h, buf, sizeof(buf), 0), 2058);
	assert_int_equal(buf[0], 'C');
	assert_int_equal(buf[99], 'C');
	assert_int_equal(buf[2048], 'D');
	assert_int_equal(buf[2057], 'D');
	assert_int_equal(ff_fs_resolve(fs, "g", &h), -ENOENT);
	assert_int_equal(ff_fs_resolve(fs, "gone", &h), -ENOENT);
	assert_int_equal(ff_fs_resolve(fs, "g2", &h), 0);
	assert_int_equal(fs->ops->getattr(fs, h, &st), 0);
	assert_int_equal(st.size, 7);
	assert_int_equal(fs->ops->read(fs, h, buf, sizeof(buf), 0), 7);
	assert_int_equal(buf[0], 0); /* never written: a hole */
	assert_true(fs->ops->check(fs, on_problem, &problems) >= 1);
	assert_true(problems >= 1);
	fs->ops->info(fs, on_info, &inf);
	assert_string_equal(inf.fixed, "1");
	assert_string_equal(inf.bad, "1");
	ff_fs_close(fs);
	unlink(path);
}

/* Garbage, zeros, truncation and a damaged header never crash the scan. */
static void test_hostile(void **state)
{
	static struct img im;
	char path[] = "/tmp/y2bad.XXXXXX";
	struct ff_open_opts o = {0};
	struct ff_err err = { 0, "" };
	struct ff_fs *fs = NULL;
	int fd;

	(void)state;
	memset(im.buf, 0, sizeof(im.buf));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, im.buf, 5000), 5000);
	close(fd);
	assert_int_not_equal(ff_yaffs2_open(path, &o, &fs, &err), 0);
	assert_non_null(strstr(err.msg, path));
	assert_false(ff_yaffs2_probe(path, &o));
	build(&im);
	/* A header whose name is not terminated. */
	memset(page_at(&im, 1, 0) + 10, 'x', 300);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, im.buf, sizeof(im.buf)), (ssize_t)sizeof(im.buf));
	close(fd);
	o.flash = (struct ff_flash_hint){ .pages_per_block = PPB };
	assert_int_equal(ff_yaffs2_open(path, &o, &fs, &err), 0);
	ff_fs_close(fs);
	unlink(path);
}

static void on_problem_text(void *ctx, const char *what)
{
	if (strstr(what, "file size 1152921504606846976 is more than"))
		(*(int *)ctx)++;
}

/* A header claiming more bytes than YAFFS2 can address (a damaged size
 * word) gives way to the size the data chunks cover, and check says so. */
static void test_oversized_header(void **state)
{
	static struct img im;
	char path[] = "/tmp/y2size.XXXXXX";
	struct ff_stat st;
	uint64_t h;
	int problems = 0;
	struct ff_fs *fs;

	(void)state;
	build(&im); /* for its layout; the pages are replaced */
	memset(im.buf, 0xff, sizeof(im.buf));
	header(&im, 0, 0, 0x1000, 257, 1, "huge", 1ull << 60, 0, 0);
	data(&im, 0, 1, 0x1000, 257, 1, 'A', 2048);
	data(&im, 0, 2, 0x1000, 257, 2, 'B', 100);
	fs = open_img(&im, path);
	assert_int_equal(ff_fs_resolve(fs, "huge", &h), 0);
	assert_int_equal(fs->ops->getattr(fs, h, &st), 0);
	assert_int_equal(st.size, 2148);
	assert_true(fs->ops->check(fs, on_problem_text, &problems) >= 1);
	assert_int_equal(problems, 1);
	ff_fs_close(fs);
	unlink(path);
}

/* 512-byte pages with inband tags: 496-byte chunks, headers truncated to
 * 496 bytes with the tags over their end.  Shadowing and shrinking come
 * from the inband_* words (plain header tags here, so nothing else carries
 * them), and the tags' sequence number where file_size_high was must not
 * become a file size. */
#define P512 512
#define PPB512 4

struct img512 {
	struct ff_y2_layout lay;
	uint8_t buf[3 * PPB512 * P512];
};

static void put512(struct img512 *im, int page, uint32_t seq, uint32_t id, uint32_t chunk,
		   uint32_t n, const uint8_t *data)
{
	struct ff_y2_tags t = { 0 };
	uint8_t *raw = im->buf + (size_t)page * P512;
	uint8_t tb[16];

	memcpy(raw, data, 496);
	t.seq = seq;
	t.obj_id = id;
	t.chunk_id = chunk;
	t.n_bytes = n;
	ff_y2_tags_pack(&t, tb, 0, 0);
	ff_y2_page_put_tags(&im->lay, raw, tb);
}

static void header512(struct img512 *im, int page, uint32_t seq, uint32_t id, const char *name,
		      uint32_t size, uint32_t shadows, uint32_t shrink)
{
	struct ff_y2_obj_header oh = file_header(FF_Y2_OBJID_ROOT, name, size, shadows, shrink);
	uint8_t chunk[496];

	assert_int_equal(ff_y2_obj_header_encode_len(&oh, chunk, 496, 0, NULL), 0);
	put512(im, page, seq, id, 0, 0xffff, chunk);
}

static void data512(struct img512 *im, int page, uint32_t seq, uint32_t id, uint32_t chunk,
		    char c)
{
	uint8_t buf[496];

	memset(buf, c, sizeof(buf));
	put512(im, page, seq, id, chunk, 496, buf);
}

static int count_xattr(void *ctx, const char *name, size_t name_len)
{
	(void)name;
	(void)name_len;
	(*(int *)ctx)++;
	return 0;
}

static void test_inband512(void **state)
{
	static struct img512 im;
	struct ff_y2_geom g = { P512, 16, PPB512 };
	struct ff_open_opts o = {0};
	struct ff_err err = { 0, "" };
	char path[] = "/tmp/y2in512.XXXXXX";
	struct ff_stat st;
	struct ff_fs *fs = NULL;
	uint8_t buf[1024];
	uint64_t h;
	int fd, problems = 0, xattrs = 0;

	(void)state;
	memset(im.buf, 0xff, sizeof(im.buf));
	assert_int_equal(ff_y2_layout_init(&im.lay, &g, "inband", NULL, 0, NULL), 0);
	header512(&im, 0, 0x1000, 257, "f", 992, 0, 0);
	data512(&im, 1, 0x1000, 257, 1, 'A');
	data512(&im, 2, 0x1000, 257, 2, 'B');
	header512(&im, 3, 0x1000, 258, "old", 0, 0, 0);
	header512(&im, 4, 0x1001, 257, "f", 100, 0, 1);   /* shrink */
	header512(&im, 5, 0x1001, 259, "new", 0, 258, 0); /* replaces 258 */
	header512(&im, 6, 0x1001, 257, "f", 600, 0, 0);   /* grows: a hole */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, im.buf, sizeof(im.buf)), (ssize_t)sizeof(im.buf));
	close(fd);
	if (ff_yaffs2_open(path, &o, &fs, &err))
		fail_msg("open (geometry detected): %s", err.msg);
	assert_int_equal(ff_fs_resolve(fs, "old", &h), -ENOENT);
	assert_int_equal(ff_fs_resolve(fs, "new", &h), 0);
	assert_int_equal(ff_fs_resolve(fs, "f", &h), 0);
	assert_int_equal(fs->ops->getattr(fs, h, &st), 0);
	assert_int_equal(st.size, 600);
	assert_int_equal(fs->ops->read(fs, h, buf, sizeof(buf), 0), 600);
	assert_int_equal(buf[99], 'A');
	assert_int_equal(buf[100], 'A'); /* chunk 1 stays, the shrink cut chunk 2 */
	assert_int_equal(buf[496], 0);
	assert_int_equal(buf[599], 0);
	assert_int_equal(fs->ops->listxattr(fs, h, count_xattr, &xattrs), 0);
	assert_int_equal(xattrs, 0);
	assert_int_equal(fs->ops->check(fs, on_problem, &problems), 0);
	assert_int_equal(problems, 0);
	ff_fs_close(fs);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_used_partition),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_oversized_header),
		cmocka_unit_test(test_inband512),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
