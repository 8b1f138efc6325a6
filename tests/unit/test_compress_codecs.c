/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Block codecs: round trips of awkward inputs for every codec and option
 * set, "did not shrink" on incompressible data, and clean failures (no
 * write past cap) on truncated, bit-flipped and oversized input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <lzma.h>

#include "compress/compress.h"

#define BLOCK (1u << 20)
#define CANARY 64
#define CANARY_BYTE 0xa5

struct config {
	const char *name;
	const char *opts[4];
	int checksummed; /* corruption is always detected, never wrong data */
};

static const struct config configs[] = {
	{ "gzip", { NULL }, 1 },
	{ "gzip", { "level=1", NULL }, 1 },
	{ "gzip", { "level=12", NULL }, 1 },
	{ "gzip", { "zlib", NULL }, 1 },
	{ "gzip", { "level=1", "window=10", NULL }, 1 },
	{ "gzip", { "strategy=default,filtered,huffman_only,rle,fixed", NULL }, 1 },
	{ "lzo", { NULL }, 0 },
	{ "lzo", { "algorithm=lzo1x_1", NULL }, 0 },
	{ "lzo", { "algorithm=lzo1x_1_11", NULL }, 0 },
	{ "lzo", { "algorithm=lzo1x_1_12", NULL }, 0 },
	{ "lzo", { "algorithm=lzo1x_1_15", NULL }, 0 },
	{ "lzo", { "algorithm=lzo1x_999", "level=3", NULL }, 0 },
	{ "xz", { NULL }, 1 },
	{ "xz", { "level=0", "dict=64K", NULL }, 1 },
	{ "xz", { "level=9", "extreme", "dict=75%", NULL }, 1 },
	{ "xz", { "bcj=x86,arm,armthumb,powerpc,sparc,ia64", "level=1", NULL }, 1 },
	{ "lzma", { NULL }, 0 },
	{ "lzma", { "level=1", NULL }, 0 },
	{ "lz4", { NULL }, 0 },
	{ "lz4", { "hc", NULL }, 0 },
	{ "lz4", { "level=4", NULL }, 0 },
	{ "zstd", { NULL }, 0 },
	{ "zstd", { "level=1", NULL }, 0 },
	{ "zstd", { "level=22", NULL }, 0 },
};
#define NCONFIGS (sizeof(configs) / sizeof(configs[0]))

struct bufs {
	uint8_t *text, *zeros, *random, *comp, *out;
};

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill_text(uint8_t *p, size_t n)
{
	static const char *const words[] = { "squashfs ", "block ", "inode ", "yaffs2 ",
					     "flash ", "erase ", "page\n", "0123 " };
	uint64_t s = 42;
	size_t i = 0;

	while (i < n) {
		const char *w = words[rng_next(&s) % 8];

		for (; *w && i < n; w++)
			p[i++] = (uint8_t)*w;
	}
}

static int setup(void **state)
{
	struct bufs *b = calloc(1, sizeof(*b));
	uint64_t s = 7;

	b->text = malloc(BLOCK);
	b->zeros = calloc(1, BLOCK);
	b->random = malloc(BLOCK);
	b->comp = malloc(BLOCK + CANARY);
	b->out = malloc(BLOCK + CANARY);
	assert_non_null(b->out);
	fill_text(b->text, BLOCK);
	for (size_t i = 0; i < BLOCK; i++)
		b->random[i] = (uint8_t)(rng_next(&s) >> 24);
	*state = b;
	return 0;
}

static int teardown(void **state)
{
	struct bufs *b = *state;

	free(b->text);
	free(b->zeros);
	free(b->random);
	free(b->comp);
	free(b->out);
	free(b);
	return 0;
}

static struct ff_comp *make(const struct config *c)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new(c->name, BLOCK, &err);

	assert_non_null(comp);
	for (int i = 0; c->opts[i]; i++) {
		if (ff_comp_set_option_str(comp, c->opts[i], &err))
			fail_msg("%s %s: %s", c->name, c->opts[i], err.msg);
	}
	return comp;
}

static void check_canary(const uint8_t *p, const char *what)
{
	for (int i = 0; i < CANARY; i++)
		if (p[i] != CANARY_BYTE)
			fail_msg("%s: wrote past cap", what);
}

/* Compress src[0..n) and decompress it again; returns the compressed size
 * (0 for NOSHRINK). */
static ssize_t round_trip(struct ff_comp_ctx *ctx, struct bufs *b, const uint8_t *src, size_t n,
			  const char *what)
{
	struct ff_err err = { 0 };
	ssize_t c, d;

	memset(b->comp, CANARY_BYTE, BLOCK + CANARY);
	c = ff_comp_compress(ctx, src, n, b->comp, n, &err);
	if (c < 0)
		fail_msg("%s: compress failed: %s", what, err.msg);
	assert_true((size_t)c < n || c == FF_COMP_NOSHRINK);
	if (c == FF_COMP_NOSHRINK)
		return 0;
	check_canary(b->comp + n, what);
	memset(b->out, CANARY_BYTE, BLOCK + CANARY);
	d = ff_comp_decompress(ctx, b->comp, (size_t)c, b->out, n, &err);
	if (d < 0)
		fail_msg("%s: decompress failed: %s", what, err.msg);
	assert_int_equal(d, n);
	assert_memory_equal(b->out, src, n);
	check_canary(b->out + n, what);
	return c;
}

static void test_round_trips(void **state)
{
	struct bufs *b = *state;

	for (size_t i = 0; i < NCONFIGS; i++) {
		struct ff_err err = { 0 };
		struct ff_comp *comp = make(&configs[i]);
		struct ff_comp_ctx *ctx = ff_comp_ctx_new(comp, &err);
		char what[128];

		assert_non_null(ctx);
		snprintf(what, sizeof(what), "config %zu (%s)", i, configs[i].name);
		assert_int_equal(round_trip(ctx, b, b->text, 0, what), 0);
		assert_int_equal(round_trip(ctx, b, b->text, 1, what), 0);
		/* Incompressible input must come back as NOSHRINK. */
		assert_int_equal(round_trip(ctx, b, b->random, 65536, what), 0);
		assert_true(round_trip(ctx, b, b->text, 4096, what) > 0);
		assert_true(round_trip(ctx, b, b->zeros, 131072, what) > 0);
		/* The context is reused across calls and sizes. */
		assert_true(round_trip(ctx, b, b->text, BLOCK, what) > 0);
		assert_true(round_trip(ctx, b, b->text, 4096, what) > 0);
		ff_comp_ctx_free(ctx);
		ff_comp_free(comp);
	}
}

/* Decompress a damaged copy: either a clean error, or (for codecs without
 * a checksum) some output within cap; never a write past cap, and for
 * checksummed codecs never different data. */
static void damaged(struct ff_comp_ctx *ctx, struct bufs *b, const struct config *c,
		    const uint8_t *src, size_t clen, size_t n, size_t cap)
{
	struct ff_err err = { 0 };
	ssize_t d;

	memset(b->out, CANARY_BYTE, BLOCK + CANARY);
	d = ff_comp_decompress(ctx, src, clen, b->out, cap, &err);
	check_canary(b->out + cap, c->name);
	if (d < 0) {
		assert_true(strlen(err.msg) > 0);
		assert_non_null(strstr(err.msg, c->name));
		return;
	}
	assert_true((size_t)d <= cap);
	if (c->checksummed)
		assert_true((size_t)d == n && !memcmp(b->out, b->text, n));
}

static void test_corrupt(void **state)
{
	struct bufs *b = *state;
	const size_t n = 65536;
	uint8_t *copy = malloc(n);

	for (size_t i = 0; i < NCONFIGS; i++) {
		struct ff_err err = { 0 };
		struct ff_comp *comp = make(&configs[i]);
		struct ff_comp_ctx *ctx = ff_comp_ctx_new(comp, &err);
		ssize_t clen = ff_comp_compress(ctx, b->text, n, b->comp, n, &err);

		assert_true(clen > 0);
		/* Truncations must fail: the stream is incomplete. */
		for (size_t cut = 1; cut < (size_t)clen; cut += 1 + (size_t)clen / 7) {
			memset(b->out, CANARY_BYTE, BLOCK + CANARY);
			assert_int_equal(ff_comp_decompress(ctx, b->comp, cut, b->out, n, &err), -1);
			check_canary(b->out + n, configs[i].name);
		}
		/* Output larger than cap fails without writing past it. */
		damaged(ctx, b, &configs[i], b->comp, (size_t)clen, n, n / 2);
		assert_int_equal(ff_comp_decompress(ctx, b->comp, (size_t)clen, b->out, n - 1, &err),
				 -1);
		for (size_t pos = 0; pos < (size_t)clen; pos += 1 + (size_t)clen / 53) {
			memcpy(copy, b->comp, (size_t)clen);
			copy[pos] ^= (uint8_t)(1u << (pos % 8));
			damaged(ctx, b, &configs[i], copy, (size_t)clen, n, n);
		}
		/* The context still works after errors. */
		assert_true(round_trip(ctx, b, b->text, n, configs[i].name) > 0);
		ff_comp_ctx_free(ctx);
		ff_comp_free(comp);
	}
	free(copy);
}

static void test_garbage_input(void **state)
{
	struct bufs *b = *state;

	for (size_t i = 0; i < NCONFIGS; i++) {
		struct ff_err err = { 0 };
		struct ff_comp *comp = make(&configs[i]);
		struct ff_comp_ctx *ctx = ff_comp_ctx_new(comp, &err);

		/* Random bytes are not a valid stream for any codec, or at
		 * least never produce more than cap. */
		for (size_t n = 1; n < 4096; n = n * 3 + 1) {
			memset(b->out, CANARY_BYTE, BLOCK + CANARY);
			(void)ff_comp_decompress(ctx, b->random + n, n, b->out, 8192, &err);
			check_canary(b->out + 8192, configs[i].name);
		}
		assert_int_equal(ff_comp_decompress(ctx, b->random, 0, b->out, 8192, &err), -1);
		ff_comp_ctx_free(ctx);
		ff_comp_free(comp);
	}
}

static void test_noshrink_small_cap(void **state)
{
	struct bufs *b = *state;
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new("zstd", 0, &err);
	struct ff_comp_ctx *ctx = ff_comp_ctx_new(comp, &err);

	/* A result that does not fit the caller's cap is NOSHRINK, not an
	 * error and not an overflow. */
	memset(b->comp, CANARY_BYTE, BLOCK + CANARY);
	assert_int_equal(ff_comp_compress(ctx, b->text, 65536, b->comp, 16, &err),
			 FF_COMP_NOSHRINK);
	check_canary(b->comp + 16, "zstd");
	ff_comp_ctx_free(ctx);
	ff_comp_free(comp);
}

/* The codec `name` for BLOCK-sized blocks and a context for it. */
static struct ff_comp_ctx *open_codec(const char *name, struct ff_comp **comp)
{
	struct ff_err err = { 0 };
	struct ff_comp_ctx *ctx;

	*comp = ff_comp_new(name, BLOCK, &err);
	assert_non_null(*comp);
	ctx = ff_comp_ctx_new(*comp, &err);
	assert_non_null(ctx);
	return ctx;
}

/* LZMA-alone headers carry the uncompressed size or "unknown" (all ones).
 * We write the size, as mksquashfs does; both forms must decode. */
static void test_lzma_size_forms(void **state)
{
	struct bufs *b = *state;
	struct ff_err err = { 0 };
	struct ff_comp *comp;
	struct ff_comp_ctx *ctx = open_codec("lzma", &comp);
	ssize_t c = ff_comp_compress(ctx, b->text, 10000, b->comp, 10000, &err);

	assert_true(c > 13);
	assert_int_equal(b->comp[5] | b->comp[6] << 8 | b->comp[7] << 16, 10000);
	assert_int_equal(ff_comp_decompress(ctx, b->comp, (size_t)c, b->out, BLOCK, &err), 10000);
	memset(b->comp + 5, 0xff, 8);
	assert_int_equal(ff_comp_decompress(ctx, b->comp, (size_t)c, b->out, BLOCK, &err), 10000);
	assert_memory_equal(b->out, b->text, 10000);
	ff_comp_ctx_free(ctx);
	ff_comp_free(comp);
}

/* Bytes after the end of a zlib stream mean the block length is wrong:
 * the block is refused rather than silently cut. */
static void test_gzip_trailing_bytes(void **state)
{
	struct bufs *b = *state;
	struct ff_err err = { 0 };
	struct ff_comp *comp;
	struct ff_comp_ctx *ctx = open_codec("gzip", &comp);
	ssize_t c = ff_comp_compress(ctx, b->text, 10000, b->comp, 10000, &err);

	assert_true(c > 0);
	assert_int_equal(ff_comp_decompress(ctx, b->comp, (size_t)c, b->out, BLOCK, &err), 10000);
	memset(b->comp + c, 0, 3);
	assert_int_equal(ff_comp_decompress(ctx, b->comp, (size_t)c + 3, b->out, BLOCK, &err), -1);
	assert_non_null(strstr(err.msg, "3 bytes of garbage"));
	ff_comp_ctx_free(ctx);
	ff_comp_free(comp);
}

/* The position of the last block's 4-byte check in a .xz stream of n
 * bytes: right before the index, whose size the footer gives. */
static size_t xz_last_check(const uint8_t *p, size_t n)
{
	const uint8_t *f = p + n - 12;
	size_t index = ((size_t)(f[4] | f[5] << 8 | f[6] << 16 | (uint32_t)f[7] << 24) + 1) * 4;

	return n - 12 - index - 4;
}

/* Decodes p (n bytes): the text's first `want` bytes, or an error whose
 * message holds `msg`. */
static void xz_expect(struct ff_comp_ctx *ctx, struct bufs *b, const uint8_t *p, size_t n,
		      size_t want, const char *msg)
{
	struct ff_err err = { 0 };
	ssize_t d = ff_comp_decompress(ctx, p, n, b->out, BLOCK, &err);

	if (msg) {
		assert_int_equal(d, -1);
		assert_non_null(strstr(err.msg, msg));
		return;
	}
	assert_int_equal(d, (ssize_t)want);
	assert_memory_equal(b->out, b->text, want);
}

/* xz.c compares a one-block stream's CRC32 itself (compress/xz_check.c):
 * a damaged check is refused and named.  Streams it leaves to liblzma (two
 * blocks, a CRC64 check) still decode, and still have their checks read. */
static void test_xz_checks(void **state)
{
	struct bufs *b = *state;
	struct ff_err err = { 0 };
	struct ff_comp *comp;
	struct ff_comp_ctx *ctx = open_codec("xz", &comp);
	ssize_t c = ff_comp_compress(ctx, b->text, 10000, b->comp, 10000, &err);
	lzma_stream st = LZMA_STREAM_INIT;
	size_t n;

	assert_true(c > 40);
	xz_expect(ctx, b, b->comp, (size_t)c, 10000, NULL);
	b->comp[xz_last_check(b->comp, (size_t)c) + 1] ^= 0x10;
	xz_expect(ctx, b, b->comp, (size_t)c, 0, "CRC32 check failed");

	/* two blocks: the first 4000 bytes flushed as a block of their own */
	assert_int_equal(lzma_easy_encoder(&st, 1, LZMA_CHECK_CRC32), LZMA_OK);
	st.next_in = b->text;
	st.avail_in = 4000;
	st.next_out = b->comp;
	st.avail_out = BLOCK;
	while (lzma_code(&st, LZMA_FULL_FLUSH) == LZMA_OK && st.avail_in)
		;
	st.avail_in = 6000;
	while (lzma_code(&st, LZMA_FINISH) == LZMA_OK)
		;
	n = BLOCK - st.avail_out;
	lzma_end(&st);
	assert_int_equal(b->comp[(n - 12) - ((size_t)b->comp[n - 8] + 1) * 4 + 1], 2);
	xz_expect(ctx, b, b->comp, n, 10000, NULL);
	b->comp[xz_last_check(b->comp, n)] ^= 1;
	xz_expect(ctx, b, b->comp, n, 0, "corrupt data");

	/* a CRC64 check, as the xz tool writes by default */
	n = 0;
	assert_int_equal(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, b->text, 10000,
						 b->comp, &n, BLOCK), LZMA_OK);
	xz_expect(ctx, b, b->comp, n, 10000, NULL);
	b->comp[n - 12 - ((size_t)b->comp[n - 8] + 1) * 4 - 8] ^= 4;
	xz_expect(ctx, b, b->comp, n, 0, "corrupt data");
	ff_comp_ctx_free(ctx);
	ff_comp_free(comp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_garbage_input),
		cmocka_unit_test(test_gzip_trailing_bytes),
		cmocka_unit_test(test_noshrink_small_cap),
		cmocka_unit_test(test_lzma_size_forms),
		cmocka_unit_test(test_xz_checks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
