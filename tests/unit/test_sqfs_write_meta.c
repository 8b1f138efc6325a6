/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS writer internals: metadata blocks (8 KiB pieces, raw when
 * compression does not shrink them, references naming the block an entry
 * starts in), lookup tables laid out the way the kernel's table checks
 * demand, and the writer's hash map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <cmocka.h>

#include "common/endian.h"
#include "squashfs/meta_writer.h"
#include "squashfs/table_writer.h"
#include "tests/unit/test_noise.h"

static struct ff_comp *comp;
static struct ff_comp_ctx *ctx;

static int setup(void **state)
{
	struct ff_err err = {0};

	(void)state;
	comp = ff_comp_new("gzip", 131072, &err);
	ctx = comp ? ff_comp_ctx_new(comp, &err) : NULL;
	return ctx ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ff_comp_ctx_free(ctx);
	ff_comp_free(comp);
	return 0;
}

static void test_raw_blocks_and_refs(void **state)
{
	struct sqfs_meta_writer mw;
	struct ff_err err = {0};
	size_t n = 2 * SQFS_META_SIZE + 100;
	uint8_t *data = malloc(n);

	(void)state;
	test_noise(data, n, 1);
	sqfs_meta_init(&mw, ctx);
	assert_int_equal(sqfs_meta_write(&mw, data, n, &err), 0);
	/* two full incompressible blocks are already out, stored raw */
	assert_int_equal(mw.n_starts, 2);
	assert_int_equal(ff_get_le16(mw.out), SQFS_META_UNCOMPRESSED | SQFS_META_SIZE);
	assert_memory_equal(mw.out + 2, data, SQFS_META_SIZE);
	assert_int_equal(mw.starts[1], SQFS_META_SIZE + 2);
	/* the next byte goes to offset 100 of the block after them */
	assert_true(sqfs_meta_ref(&mw) == sqfs_ref(2 * (SQFS_META_SIZE + 2), 100));
	assert_int_equal(sqfs_meta_flush(&mw, &err), 0);
	assert_int_equal(mw.len, 2 * (SQFS_META_SIZE + 2) + 2 + 100);
	assert_int_equal(mw.raw_pos, n);
	sqfs_meta_free(&mw);
	free(data);
}

static void test_compressed_block_round_trip(void **state)
{
	struct sqfs_meta_writer mw;
	struct ff_err err = {0};
	uint8_t text[5000], back[SQFS_META_SIZE];
	uint16_t hdr;
	ssize_t got;

	(void)state;
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = "metadata "[i % 9];
	sqfs_meta_init(&mw, ctx);
	assert_int_equal(sqfs_meta_write(&mw, text, sizeof(text), &err), 0);
	assert_int_equal(mw.len, 0); /* nothing out before a flush */
	assert_int_equal(sqfs_meta_flush(&mw, &err), 0);
	hdr = ff_get_le16(mw.out);
	assert_false(hdr & SQFS_META_UNCOMPRESSED);
	assert_true((hdr & 0x7fff) < sizeof(text));
	assert_int_equal(mw.len, 2u + (hdr & 0x7fff));
	got = ff_comp_decompress(ctx, mw.out + 2, hdr & 0x7fff, back, sizeof(back), &err);
	assert_int_equal(got, sizeof(text));
	assert_memory_equal(back, text, sizeof(text));
	/* flushing an empty block writes nothing */
	assert_int_equal(sqfs_meta_flush(&mw, &err), 0);
	assert_int_equal(mw.n_starts, 1);
	sqfs_meta_free(&mw);
}

/* The kernel's id/export/fragment table checks: each listed block before
 * the next and at most 8194 bytes from it, the last one before the list. */
static void test_lookup_table_layout(void **state)
{
	struct sqfs_sink sink = { NULL, 1000 };
	struct ff_err err = {0};
	uint8_t prefix[16] = {0};
	size_t n = 5000 * 4;
	uint8_t *data = malloc(n);
	uint64_t index = 0;

	(void)state;
	test_noise(data, n, 7);
	assert_int_equal(sqfs_table_write(&sink, ctx, data, n, prefix, sizeof(prefix), &index,
					  &err), 0);
	/* 20000 bytes = 3 blocks, each stored raw (+2): list after them */
	assert_int_equal(index, 1000 + 3 * 2 + n);
	assert_int_equal(sink.pos, index + sizeof(prefix) + 3 * 8);
	free(data);
}

static void test_lookup_table_real_bytes(void **state)
{
	char path[] = "/tmp/sqfs-table-XXXXXX";
	struct ff_outfile of;
	struct sqfs_sink sink = { &of, 0 };
	struct ff_err err = {0};
	uint8_t ids[4 * 3000], *img;
	uint64_t index = 0, loc[2];
	FILE *f;
	long size;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (uint32_t i = 0; i < 3000; i++)
		ff_put_le32(ids + 4 * i, i * 3);
	assert_int_equal(ff_outfile_open(&of, path, &err), 0);
	assert_int_equal(sqfs_table_write(&sink, ctx, ids, sizeof(ids), NULL, 0, &index, &err), 0);
	assert_int_equal(ff_outfile_commit(&of, &err), 0);
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	img = malloc((size_t)size);
	assert_int_equal(fread(img, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	unlink(path);
	assert_int_equal((uint64_t)size, index + 16);
	loc[0] = ff_get_le64(img + index);
	loc[1] = ff_get_le64(img + index + 8);
	assert_true(loc[0] == 0);
	assert_true(loc[0] < loc[1] && loc[1] - loc[0] <= SQFS_META_SIZE + 2);
	assert_true(loc[1] < index && index - loc[1] <= SQFS_META_SIZE + 2);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_blocks_and_refs),
		cmocka_unit_test(test_compressed_block_round_trip),
		cmocka_unit_test(test_lookup_table_layout),
		cmocka_unit_test(test_lookup_table_real_bytes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
