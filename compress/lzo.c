/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* lzo: liblzo2 LZO1X, SquashFS id 3.  Options block: u32 algorithm index,
 * u32 level (only for lzo1x_999, else 0).  liblzo's compressors do not take
 * an output limit, so they write into a worst-case scratch buffer.
 * Built with `make LZO=0` (FF_NO_LZO) only the options remain, so a reader
 * can still describe an image's; a context is refused (lzo_build.c). */
#include "compress/codec.h"
#include "compress/compress.h"
#include "common/endian.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef FF_NO_LZO
#include <lzo/lzo1x.h>
#endif

enum { LZO_1, LZO_1_11, LZO_1_12, LZO_1_15, LZO_999, LZO_NALG };
#define LZO_LEVEL 8

struct lzo_opts {
	int algorithm;
	int level;
	int level_set; /* an explicit level only makes sense for lzo1x_999 */
};

struct lzo_state {
	struct lzo_opts o;
	void *work;
	uint8_t *out;
	size_t out_cap;
};

static const char *const alg_names[] = { "lzo1x_1", "lzo1x_1_11", "lzo1x_1_12", "lzo1x_1_15",
					 "lzo1x_999", NULL };

static void lzo_defaults(void *opts, uint32_t block_size)
{
	struct lzo_opts *o = opts;

	(void)block_size;
	o->algorithm = LZO_999;
	o->level = LZO_LEVEL;
	o->level_set = 0;
}

static int lzo_set_alg(struct lzo_opts *o, const char *key, const char *value,
		       struct ff_err *err)
{
	uint32_t m;
	int i = 0;

	if (ff_opt_list("lzo", key, value, alg_names, NULL, &m, err))
		return -1;
	if (m & (m - 1))
		return ff_err_set(err, EINVAL, "lzo: %s=%s: give one algorithm", key, value);
	while (!(m & (1u << i)))
		i++;
	if (i != LZO_999 && o->level_set)
		return ff_err_set(err, EINVAL, "lzo: %s=%s: a level only applies to lzo1x_999",
				  key, value);
	o->algorithm = i;
	return 0;
}

static int lzo_set(void *opts, uint32_t block_size, const char *key, const char *value,
		   struct ff_err *err)
{
	static const char *const k_alg[] = { "algorithm", "alg", NULL };
	static const char *const k_level[] = { "level", "compression-level", NULL };
	struct lzo_opts *o = opts;
	long v;

	(void)block_size;
	if (ff_opt_is(key, k_alg))
		return lzo_set_alg(o, key, value, err);
	if (!ff_opt_is(key, k_level))
		return ff_opt_unknown("lzo", key, err);
	if (ff_opt_int("lzo", key, value, 1, 9, &v, err))
		return -1;
	if (o->algorithm != LZO_999)
		return ff_err_set(err, EINVAL, "lzo: %s=%s: a level only applies to lzo1x_999, not %s",
				  key, value, alg_names[o->algorithm]);
	o->level = (int)v;
	o->level_set = 1;
	return 0;
}

static void lzo_options(const void *opts, int stored, ff_info_fn fn, void *ctx)
{
	const struct lzo_opts *o = opts;

	(void)stored;
	ff_info_str(fn, ctx, "algorithm", alg_names[o->algorithm]);
	if (o->algorithm == LZO_999)
		ff_info_int(fn, ctx, "level", o->level);
}

static ssize_t lzo_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	const struct lzo_opts *o = opts;

	(void)block_size;
	if (o->algorithm == LZO_999 && o->level == LZO_LEVEL)
		return 0;
	if (cap < 8)
		return -1;
	ff_put_le32(buf, (uint32_t)o->algorithm);
	ff_put_le32(buf + 4, o->algorithm == LZO_999 ? (uint32_t)o->level : 0);
	return 8;
}

static int lzo_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		      struct ff_err *err)
{
	struct lzo_opts *o = opts;
	uint32_t alg, level;

	(void)block_size;
	if (len < 8)
		return ff_err_set(err, EINVAL, "lzo options: block is %zu bytes, need 8", len);
	alg = ff_get_le32(buf);
	level = ff_get_le32(buf + 4);
	if (alg >= LZO_NALG)
		return ff_err_set(err, EINVAL, "lzo options: unknown algorithm %u", alg);
	if (alg == LZO_999 && (level < 1 || level > 9))
		return ff_err_set(err, EINVAL, "lzo options: level %u not in 1..9", level);
	if (alg != LZO_999 && level != 0)
		return ff_err_set(err, EINVAL, "lzo options: level %u given for %s (must be 0)",
				  level, alg_names[alg]);
	o->algorithm = (int)alg;
	o->level = alg == LZO_999 ? (int)level : LZO_LEVEL;
	return 0;
}

#ifndef FF_NO_LZO
static void lzo_free(void *state)
{
	struct lzo_state *s = state;

	if (s) {
		free(s->work);
		free(s->out);
		free(s);
	}
}

static void *lzo_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	struct lzo_state *s;

	(void)block_size;
	if (lzo_init() != LZO_E_OK) {
		ff_err_set(err, EIO, "lzo: lzo_init failed (library mismatch)");
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s)
		s->work = malloc(LZO1X_999_MEM_COMPRESS);
	if (!s || !s->work) {
		free(s);
		ff_err_set(err, ENOMEM, "lzo: out of memory");
		return NULL;
	}
	s->o = *(const struct lzo_opts *)opts;
	return s;
}

static int lzo_run(struct lzo_state *s, const uint8_t *src, size_t n, lzo_uint *len)
{
	switch (s->o.algorithm) {
	case LZO_1:
		return lzo1x_1_compress(src, n, s->out, len, s->work);
	case LZO_1_11:
		return lzo1x_1_11_compress(src, n, s->out, len, s->work);
	case LZO_1_12:
		return lzo1x_1_12_compress(src, n, s->out, len, s->work);
	case LZO_1_15:
		return lzo1x_1_15_compress(src, n, s->out, len, s->work);
	default:
		return lzo1x_999_compress_level(src, n, s->out, len, s->work, NULL, 0, 0,
						s->o.level);
	}
}

static ssize_t lzo_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			    struct ff_err *err)
{
	struct lzo_state *s = state;
	/* liblzo's documented worst case for incompressible input. */
	size_t need = n + n / 16 + 64 + 3;
	lzo_uint len = 0;
	int ret;

	if (ff_codec_reserve(&s->out, &s->out_cap, need, "lzo", err))
		return -1;
	ret = lzo_run(s, src, n, &len);
	if (ret != LZO_E_OK)
		return ff_err_set(err, EIO, "lzo: %s failed (%d)", alg_names[s->o.algorithm], ret);
	if (len > cap)
		return FF_CODEC_NOFIT;
	memcpy(dst, s->out, len);
	return (ssize_t)len;
}

static ssize_t lzo_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			      struct ff_err *err)
{
	lzo_uint len = cap;
	int ret;

	(void)state;
	ret = lzo1x_decompress_safe(src, n, dst, &len, NULL);
	switch (ret) {
	case LZO_E_OK:
		return (ssize_t)len;
	case LZO_E_OUTPUT_OVERRUN:
		return ff_err_set(err, EIO, "lzo: data expands past %zu bytes", cap);
	case LZO_E_INPUT_OVERRUN:
		return ff_err_set(err, EIO, "lzo: truncated data (%zu bytes)", n);
	case LZO_E_INPUT_NOT_CONSUMED:
		return ff_err_set(err, EIO, "lzo: garbage after the data (block of %zu bytes)", n);
	default:
		return ff_err_set(err, EIO, "lzo: corrupt data (error %d, block of %zu bytes)", ret,
				  n);
	}
}

#else /* FF_NO_LZO */

static void lzo_free(void *state)
{
	(void)state;
}

static void *lzo_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	(void)opts;
	(void)block_size;
	ff_comp_no_lzo(err, "lzo");
	return NULL;
}

static ssize_t lzo_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			    struct ff_err *err)
{
	(void)state, (void)src, (void)n, (void)dst, (void)cap;
	return ff_comp_no_lzo(err, "lzo");
}

static ssize_t lzo_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			      struct ff_err *err)
{
	(void)state, (void)src, (void)n, (void)dst, (void)cap;
	return ff_comp_no_lzo(err, "lzo");
}
#endif

const struct ff_codec ff_codec_lzo = {
	.name = "lzo",
	.id = 3,
	.help = "algorithm=lzo1x_1|lzo1x_1_11|lzo1x_1_12|lzo1x_1_15|lzo1x_999 (default lzo1x_999)\n"
		"level=1..9 (lzo1x_999 only, default 8)\n",
	.opts_size = sizeof(struct lzo_opts),
	.defaults = lzo_defaults,
	.set_option = lzo_set,
	.options = lzo_options,
	.options_encode = lzo_encode,
	.options_decode = lzo_decode,
	.ctx_new = lzo_new,
	.ctx_free = lzo_free,
	.compress = lzo_compress,
	.decompress = lzo_decompress,
};
