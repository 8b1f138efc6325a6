/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Codec options: parsing (with mksquashfs spellings), error messages that
 * name key and value, and the SquashFS compressor-options block.  The
 * expected block bytes were read from images made by Debian's mksquashfs
 * 4.5.1 (e.g. -comp xz -Xbcj x86 stores dict=block size, filters=1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "compress/compress.h"

#define BS 131072u

static struct ff_comp *make(const char *name, const char *const *opts)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new(name, BS, &err);

	assert_non_null(comp);
	for (; opts && *opts; opts++)
		if (ff_comp_set_option_str(comp, *opts, &err))
			fail_msg("%s %s: %s", name, *opts, err.msg);
	return comp;
}

/* The options block a codec + options produce, compared with bytes. */
static void expect_block(const char *name, const char *const *opts, const uint8_t *want,
			 ssize_t want_len)
{
	struct ff_comp *comp = make(name, opts);
	uint8_t buf[64];
	ssize_t len = ff_comp_options_encode(comp, buf, sizeof(buf));

	assert_int_equal(len, want_len);
	if (want_len > 0)
		assert_memory_equal(buf, want, (size_t)want_len);
	if (want_len > 0)
		assert_int_equal(ff_comp_options_encode(comp, buf, (size_t)want_len - 1), -1);
	ff_comp_free(comp);
}

static void test_blocks_match_mksquashfs(void **state)
{
	(void)state;
	static const char *const none[] = { NULL };
	static const char *const gz_l5[] = { "compression-level=5", NULL };
	static const char *const gz_all[] = {
		"strategy=default,filtered,huffman_only,run_length_encoded,fixed",
		"level=5", "window-size=12", NULL };
	static const char *const gz_def[] = { "strategy=default", NULL };
	static const char *const gz_zlib[] = { "zlib", NULL };
	static const char *const gz_ld6[] = { "level=6", NULL };
	static const char *const gz_ld9[] = { "level=9", NULL };
	static const char *const gz_ld12[] = { "level=12", NULL };
	static const char *const xz_x86[] = { "-Xbcj=x86", NULL };
	static const char *const xz_sparc[] = { "bcj=sparc", NULL };
	static const char *const xz_half[] = { "Xdict-size=50%", NULL };
	static const char *const xz_lvl[] = { "level=9", "extreme", NULL };
	static const char *const lz4_hc[] = { "hc", NULL };
	static const char *const zs_3[] = { "compression-level=3", NULL };
	static const char *const lzo_1[] = { "algorithm=lzo1x_1", NULL };
	static const char *const lzo_999_5[] = { "algorithm=lzo1x_999", "level=5", NULL };
	static const char *const lzo_15[] = { "algorithm=lzo1x_1_15", NULL };

	expect_block("gzip", none, NULL, 0);
	expect_block("gzip", gz_def, NULL, 0);
	expect_block("gzip", gz_l5, (const uint8_t[]){ 5, 0, 0, 0, 15, 0, 0, 0 }, 8);
	expect_block("gzip", gz_all, (const uint8_t[]){ 5, 0, 0, 0, 12, 0, 0x1f, 0 }, 8);
	/* libdeflate: a level and window 15; 9 is what no block means. */
	expect_block("gzip", gz_zlib, NULL, 0);
	expect_block("gzip", gz_ld9, NULL, 0);
	expect_block("gzip", gz_ld6, (const uint8_t[]){ 6, 0, 0, 0, 15, 0, 0, 0 }, 8);
	expect_block("gzip", gz_ld12, (const uint8_t[]){ 12, 0, 0, 0, 15, 0, 0, 0 }, 8);
	expect_block("xz", none, NULL, 0);
	expect_block("xz", xz_lvl, NULL, 0);
	expect_block("xz", xz_x86, (const uint8_t[]){ 0, 0, 2, 0, 1, 0, 0, 0 }, 8);
	expect_block("xz", xz_sparc, (const uint8_t[]){ 0, 0, 2, 0, 0x20, 0, 0, 0 }, 8);
	expect_block("xz", xz_half, (const uint8_t[]){ 0, 0, 1, 0, 0, 0, 0, 0 }, 8);
	expect_block("lz4", none, (const uint8_t[]){ 1, 0, 0, 0, 0, 0, 0, 0 }, 8);
	expect_block("lz4", lz4_hc, (const uint8_t[]){ 1, 0, 0, 0, 1, 0, 0, 0 }, 8);
	expect_block("zstd", none, NULL, 0);
	expect_block("zstd", zs_3, (const uint8_t[]){ 3, 0, 0, 0 }, 4);
	expect_block("lzo", none, NULL, 0);
	expect_block("lzo", lzo_1, (const uint8_t[]){ 0, 0, 0, 0, 0, 0, 0, 0 }, 8);
	expect_block("lzo", lzo_999_5, (const uint8_t[]){ 4, 0, 0, 0, 5, 0, 0, 0 }, 8);
	expect_block("lzo", lzo_15, (const uint8_t[]){ 3, 0, 0, 0, 0, 0, 0, 0 }, 8);
	expect_block("lzma", none, NULL, 0);
}

/* encode -> decode into a codec as a reader makes it -> same description
 * (or `want`, where the block does not record everything). */
static void round_trip_as(const char *name, const char *const *opts, const char *want)
{
	struct ff_err err = { 0 };
	struct ff_comp *a = make(name, opts), *b = ff_comp_new(name, BS, &err);
	struct ff_comp *r = ff_comp_new_id(ff_comp_id(b), BS, &err);
	char da[256], db[256];
	uint8_t buf[64];
	ssize_t len = ff_comp_options_encode(a, buf, sizeof(buf));

	assert_true(len > 0);
	if (ff_comp_options_decode(b, buf, (size_t)len, &err) ||
	    ff_comp_options_decode(r, buf, (size_t)len, &err))
		fail_msg("%s: %s", name, err.msg);
	ff_comp_describe(a, da, sizeof(da));
	ff_comp_describe(b, db, sizeof(db));
	assert_string_equal(want ? want : da, db);
	ff_comp_describe(r, db, sizeof(db));
	assert_string_equal(want ? want : da, db);
	ff_comp_free(a);
	ff_comp_free(b);
	ff_comp_free(r);
}

static void round_trip(const char *name, const char *const *opts)
{
	round_trip_as(name, opts, NULL);
}

static void test_block_round_trip(void **state)
{
	(void)state;
	static const char *const gz[] = { "level=3", "window=9", "strategy=rle,fixed", NULL };
	static const char *const xz[] = { "dict=48K", "bcj=arm,armthumb,ia64", NULL };
	static const char *const lz4[] = { "hc", NULL };
	static const char *const lz4d[] = { NULL };
	static const char *const zs[] = { "level=19", NULL };
	static const char *const lzo[] = { "algorithm=lzo1x_1_12", NULL };
	static const char *const lzo9[] = { "level=9", NULL };

	static const char *const gz11[] = { "level=11", NULL };
	static const char *const gz4[] = { "level=4", NULL };

	/* The block holds a deflate level, not which encoder wrote it. */
	round_trip_as("gzip", gz, "level=3,window=9,strategy=run_length_encoded,fixed");
	round_trip_as("gzip", gz4, "level=4,window=15,strategy=default");
	round_trip("gzip", gz11);
	round_trip("xz", xz);
	round_trip("lz4", lz4);
	round_trip("lz4", lz4d);
	round_trip("zstd", zs);
	round_trip("lzo", lzo);
	round_trip("lzo", lzo9);
}

static void expect_decode_error(const char *name, const uint8_t *buf, size_t len,
				const char *needle)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new(name, BS, &err);

	assert_int_equal(ff_comp_options_decode(comp, buf, len, &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("%s: message '%s' lacks '%s'", name, err.msg, needle);
	ff_comp_free(comp);
}

static void test_block_validation(void **state)
{
	(void)state;
	expect_decode_error("lz4", (const uint8_t[]){ 2, 0, 0, 0, 0, 0, 0, 0 }, 8, "version 2");
	expect_decode_error("lz4", (const uint8_t[]){ 1, 0, 0, 0, 4, 0, 0, 0 }, 8, "flags");
	expect_decode_error("lz4", (const uint8_t[]){ 1, 0, 0, 0 }, 4, "4 bytes");
	expect_decode_error("gzip", (const uint8_t[]){ 13, 0, 0, 0, 15, 0, 0, 0 }, 8, "level 13");
	expect_decode_error("gzip", (const uint8_t[]){ 10, 0, 0, 0, 14, 0, 0, 0 }, 8, "window 14");
	expect_decode_error("gzip", (const uint8_t[]){ 12, 0, 0, 0, 15, 0, 2, 0 }, 8,
			    "strategies 0x2");
	expect_decode_error("gzip", (const uint8_t[]){ 9, 0, 0, 0, 16, 0, 0, 0 }, 8, "window 16");
	expect_decode_error("gzip", (const uint8_t[]){ 9, 0, 0, 0, 15, 0, 0x20, 0 }, 8,
			    "strategy");
	expect_decode_error("xz", (const uint8_t[]){ 0xa0, 0x86, 0x01, 0, 0, 0, 0, 0 }, 8,
			    "100000");
	expect_decode_error("zstd", (const uint8_t[]){ 23, 0, 0, 0 }, 4, "level 23");
	expect_decode_error("lzo", (const uint8_t[]){ 5, 0, 0, 0, 0, 0, 0, 0 }, 8, "algorithm 5");
	expect_decode_error("lzo", (const uint8_t[]){ 0, 0, 0, 0, 3, 0, 0, 0 }, 8, "level 3");
	expect_decode_error("lzma", (const uint8_t[]){ 0 }, 1, "no options");
}

/* A reader meets an options block it cannot interpret: the read goes on
 * with the defaults, the block is shown as stored, and a writer is told. */
static void text_of(void *ctx, const struct ff_info_item *it)
{
	char *out = ctx;

	if (it->type == FF_INFO_STR && !strcmp(it->key, "stored"))
		strcpy(out, it->str);
}

static void test_block_unread(void **state)
{
	/* OpenWrt 12.09/14.07's 12-byte xz block, as in three real firmwares. */
	static const uint8_t openwrt[12] = { 0x14, 0, 9, 0, 0x90, 0, 0x40, 0, 0, 0, 4, 0 };
	static const uint8_t good[8] = { 0, 0, 2, 0, 1, 0, 0, 0 };
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new_id(4, BS, &err);
	char desc[256], stored[80] = "";

	(void)state;
	assert_int_equal(ff_comp_options_decode(comp, openwrt, 12, &err), -1);
	assert_int_equal(ff_comp_options_read(comp, openwrt, 12, &err), 1);
	assert_non_null(strstr(err.msg, "12 bytes"));
	assert_non_null(ff_comp_options_unread(comp));
	ff_comp_options(comp, 1, text_of, stored);
	assert_string_equal(stored, "140009009000400000000400");
	ff_comp_describe_stored(comp, desc, sizeof(desc));
	assert_null(strstr(desc, "bcj"));
	ff_comp_free(comp);
	/* A block the codec understands reads as before, with no note. */
	comp = ff_comp_new_id(4, BS, &err);
	assert_int_equal(ff_comp_options_read(comp, good, 8, &err), 0);
	assert_null(ff_comp_options_unread(comp));
	ff_comp_describe_stored(comp, desc, sizeof(desc));
	assert_non_null(strstr(desc, "bcj=x86"));
	ff_comp_free(comp);
}

static void expect_parse_error(const char *name, const char *kv, const char *n1,
			       const char *n2)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new(name, BS, &err);

	assert_int_equal(ff_comp_set_option_str(comp, kv, &err), -1);
	if (!strstr(err.msg, n1) || (n2 && !strstr(err.msg, n2)))
		fail_msg("%s %s: message '%s' lacks '%s'/'%s'", name, kv, err.msg, n1,
			 n2 ? n2 : "");
	ff_comp_free(comp);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_parse_error("gzip", "level=13", "level", "13");
	expect_parse_error("gzip", "compression-level=10", "compression-level", "10");
	expect_parse_error("gzip", "zlib=maybe", "zlib", "maybe");
	expect_parse_error("gzip", "level=abc", "level", "abc");
	expect_parse_error("gzip", "window=7", "window", "7");
	expect_parse_error("gzip", "strategy=default,bogus", "strategy", "bogus");
	expect_parse_error("gzip", "colour=blue", "colour", NULL);
	expect_parse_error("xz", "dict=100000", "dict", "100000");
	expect_parse_error("xz", "dict=4K", "dict", "4K");
	expect_parse_error("xz", "dict=256K", "dict", "256K");
	expect_parse_error("xz", "dict=30%", "dict", "30%");
	expect_parse_error("xz", "bcj=x86,mips", "bcj", "mips");
	expect_parse_error("xz", "level=10", "level", "10");
	expect_parse_error("xz", "extreme=maybe", "extreme", "maybe");
	expect_parse_error("lzo", "algorithm=lzo1y", "algorithm", "lzo1y");
	expect_parse_error("lz4", "level=13", "level", "13");
	expect_parse_error("zstd", "level=0", "level", "0");
	expect_parse_error("zstd", "compression-level=23", "compression-level", "23");
	expect_parse_error("lzma", "dict=1M", "dict", NULL);
	expect_parse_error("lzo", "level=", "level", NULL);
}

static void test_lzo_level_only_for_999(void **state)
{
	(void)state;
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new("lzo", BS, &err);

	assert_int_equal(ff_comp_set_option_str(comp, "algorithm=lzo1x_1", &err), 0);
	assert_int_equal(ff_comp_set_option_str(comp, "level=5", &err), -1);
	assert_non_null(strstr(err.msg, "lzo1x_999"));
	ff_comp_free(comp);
	comp = ff_comp_new("lzo", BS, &err);
	assert_int_equal(ff_comp_set_option_str(comp, "level=5", &err), 0);
	assert_int_equal(ff_comp_set_option_str(comp, "algorithm=lzo1x_1_15", &err), -1);
	ff_comp_free(comp);
}

/* Options applied in order, then the description, or NULL when the last one
 * must fail with a message holding `needle`. */
static void expect_gzip(const char *const *opts, const char *desc, const char *needle)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new("gzip", BS, &err);
	char got[128];
	int r = 0;

	for (; *opts && !r; opts++)
		r = ff_comp_set_option_str(comp, *opts, &err);
	if (!desc) {
		assert_int_equal(r, -1);
		if (!strstr(err.msg, needle))
			fail_msg("message '%s' lacks '%s'", err.msg, needle);
	} else {
		if (r)
			fail_msg("%s", err.msg);
		ff_comp_describe(comp, got, sizeof(got));
		assert_string_equal(got, desc);
	}
	ff_comp_free(comp);
}

/* gzip: libdeflate by default; zlib on request or implied by mksquashfs'
 * option spellings, keeping a level the user gave if zlib has it. */
static void test_gzip_encoders(void **state)
{
	(void)state;
	expect_gzip((const char *const[]){ "level=12", NULL }, "libdeflate,level=12", NULL);
	expect_gzip((const char *const[]){ "-Xzlib", NULL },
		    "zlib,level=9,window=15,strategy=default", NULL);
	expect_gzip((const char *const[]){ "level=4", "zlib", NULL },
		    "zlib,level=4,window=15,strategy=default", NULL);
	expect_gzip((const char *const[]){ "-Xcompression-level=2", NULL },
		    "zlib,level=2,window=15,strategy=default", NULL);
	expect_gzip((const char *const[]){ "-Xwindow-size=10", NULL },
		    "zlib,level=9,window=10,strategy=default", NULL);
	expect_gzip((const char *const[]){ "-Xstrategy=filtered", NULL },
		    "zlib,level=9,window=15,strategy=filtered", NULL);
	expect_gzip((const char *const[]){ "zlib", "libdeflate", "level=11", NULL },
		    "libdeflate,level=11", NULL);
	expect_gzip((const char *const[]){ "zlib=no", NULL }, "libdeflate,level=9", NULL);
	expect_gzip((const char *const[]){ "level=12", "zlib", NULL }, NULL, "level=12");
	expect_gzip((const char *const[]){ "level=11", "window=12", NULL }, NULL, "level=11");
	expect_gzip((const char *const[]){ "zlib", "level=10", NULL }, NULL, "1..9");
	expect_gzip((const char *const[]){ "strategy=rle", "libdeflate", NULL }, NULL,
		    "strategy");
}

static void test_registry(void **state)
{
	(void)state;
	const char *const *names = ff_comp_names();
	static const char *const want[] = { "gzip", "lzo", "xz", "lzma", "lz4", "zstd" };
	struct ff_err err = { 0 };
	char desc[256];

	for (int i = 0; i < 6; i++) {
		struct ff_comp *by_name, *by_id;

		assert_string_equal(names[i], want[i]);
		by_name = ff_comp_new(names[i], BS, &err);
		by_id = ff_comp_new_id(ff_comp_id(by_name), BS, &err);
		assert_non_null(by_id);
		assert_string_equal(ff_comp_name(by_id), want[i]);
		assert_int_equal(ff_comp_kernel_unsupported(by_id), !strcmp(want[i], "lzma"));
		assert_non_null(ff_comp_option_help(want[i]));
		ff_comp_free(by_name);
		ff_comp_free(by_id);
	}
	assert_null(names[6]);
	assert_null(ff_comp_new("brotli", BS, &err));
	assert_non_null(strstr(err.msg, "brotli"));
	assert_null(ff_comp_new_id(7, BS, &err));
	assert_non_null(strstr(err.msg, "7"));

	struct ff_comp *gz = ff_comp_new("gzip", BS, &err);

	ff_comp_describe(gz, desc, sizeof(desc));
	assert_string_equal(desc, "libdeflate,level=9");
	assert_int_equal(ff_comp_id(gz), FF_COMP_GZIP);
	ff_comp_free(gz);
	/* An image without an options block does not say which encoder. */
	gz = ff_comp_new_id(FF_COMP_GZIP, BS, &err);
	ff_comp_describe(gz, desc, sizeof(desc));
	assert_string_equal(desc, "level=9,window=15,strategy=default");
	ff_comp_free(gz);
}

static void test_xz_dict_forms(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		const char *desc;
	} ok[] = {
		{ "dict=8K", "level=6,dict=8192" },
		{ "dict=96K", "level=6,dict=98304" },
		{ "dict=37.5%", "level=6,dict=49152" },
		{ "dict=131072", "level=6,dict=131072" },
	};
	struct ff_err err = { 0 };
	char desc[128];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct ff_comp *xz = ff_comp_new("xz", BS, &err);

		if (ff_comp_set_option_str(xz, ok[i].text, &err))
			fail_msg("%s: %s", ok[i].text, err.msg);
		ff_comp_describe(xz, desc, sizeof(desc));
		assert_string_equal(desc, ok[i].desc);
		ff_comp_free(xz);
	}
}

/* The typed options as JSON (all of them, or only what a block stores). */
static void options_json(const char *name, const char *const *opts, int stored, const char *want)
{
	struct ff_comp *comp = make(name, opts);
	char buf[512] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct ff_json j;

	ff_json_init(&j, f, 0);
	ff_json_begin_object(&j);
	ff_comp_options(comp, stored, ff_info_json, &j);
	ff_json_end(&j);
	fclose(f);
	assert_string_equal(buf, want);
	ff_comp_free(comp);
}

static void test_options_typed(void **state)
{
	static const char *const xz[] = { "level=1", "dict=65536", "bcj=x86,arm", NULL };
	static const char *const lz4hc[] = { "hc", NULL };
	static const char *const zlib[] = { "zlib", "level=6", NULL };

	(void)state;
	options_json("xz", xz, 0,
		     "{\"level\":1,\"extreme\":false,\"dict\":65536,\"bcj\":[\"x86\",\"arm\"]}");
	options_json("xz", xz, 1, "{\"dict\":65536,\"bcj\":[\"x86\",\"arm\"]}");
	options_json("gzip", NULL, 0, "{\"encoder\":\"libdeflate\",\"level\":9}");
	options_json("gzip", zlib, 0,
		     "{\"encoder\":\"zlib\",\"level\":6,\"window\":15,\"strategy\":[\"default\"]}");
	options_json("lz4", NULL, 0, "{\"hc\":false}");
	options_json("lz4", lz4hc, 0, "{\"hc\":true,\"level\":12}");
	options_json("zstd", NULL, 0, "{\"level\":15}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks_match_mksquashfs),
		cmocka_unit_test(test_block_round_trip),
		cmocka_unit_test(test_block_validation),
		cmocka_unit_test(test_block_unread),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_lzo_level_only_for_999),
		cmocka_unit_test(test_gzip_encoders),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_xz_dict_forms),
		cmocka_unit_test(test_options_typed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
