/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* zstd: libzstd frames, SquashFS id 6.  Options block: u32 level. */
#include "compress/codec.h"
#include "common/endian.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#define ZS_LEVEL 15
#define ZS_MAX 22

struct zs_opts {
	int level;
};

struct zs_state {
	int level;
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
};

static void zs_defaults(void *opts, uint32_t block_size)
{
	(void)block_size;
	((struct zs_opts *)opts)->level = ZS_LEVEL;
}

static int zs_set(void *opts, uint32_t block_size, const char *key, const char *value,
		  struct ff_err *err)
{
	static const char *const k_level[] = { "level", "compression-level", NULL };
	long v;

	(void)block_size;
	if (!ff_opt_is(key, k_level))
		return ff_opt_unknown("zstd", key, err);
	if (ff_opt_int("zstd", key, value, 1, ZS_MAX, &v, err))
		return -1;
	((struct zs_opts *)opts)->level = (int)v;
	return 0;
}

static void zs_options(const void *opts, int stored, ff_info_fn fn, void *ctx)
{
	(void)stored;
	ff_info_int(fn, ctx, "level", ((const struct zs_opts *)opts)->level);
}

static ssize_t zs_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	const struct zs_opts *o = opts;

	(void)block_size;
	if (o->level == ZS_LEVEL)
		return 0;
	if (cap < 4)
		return -1;
	ff_put_le32(buf, (uint32_t)o->level);
	return 4;
}

static int zs_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		     struct ff_err *err)
{
	uint32_t level;

	(void)block_size;
	if (len < 4)
		return ff_err_set(err, EINVAL, "zstd options: block is %zu bytes, need 4", len);
	level = ff_get_le32(buf);
	if (level < 1 || level > ZS_MAX)
		return ff_err_set(err, EINVAL, "zstd options: level %u not in 1..%d", level, ZS_MAX);
	((struct zs_opts *)opts)->level = (int)level;
	return 0;
}

static void zs_free(void *state)
{
	struct zs_state *s = state;

	if (s) {
		ZSTD_freeCCtx(s->cctx);
		ZSTD_freeDCtx(s->dctx);
		free(s);
	}
}

static void *zs_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	struct zs_state *s = calloc(1, sizeof(*s));

	(void)block_size;
	if (s) {
		s->cctx = ZSTD_createCCtx();
		s->dctx = ZSTD_createDCtx();
	}
	if (!s || !s->cctx || !s->dctx) {
		zs_free(s);
		ff_err_set(err, ENOMEM, "zstd: out of memory");
		return NULL;
	}
	s->level = ((const struct zs_opts *)opts)->level;
	return s;
}

static ssize_t zs_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			   struct ff_err *err)
{
	struct zs_state *s = state;
	size_t got = ZSTD_compressCCtx(s->cctx, dst, cap, src, n, s->level);

	if (!ZSTD_isError(got))
		return (ssize_t)got;
	if (ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall)
		return FF_CODEC_NOFIT;
	return ff_err_set(err, EIO, "zstd: compression failed: %s", ZSTD_getErrorName(got));
}

static ssize_t zs_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     struct ff_err *err)
{
	struct zs_state *s = state;
	size_t got = ZSTD_decompressDCtx(s->dctx, dst, cap, src, n);

	if (!ZSTD_isError(got))
		return (ssize_t)got;
	if (ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall)
		return ff_err_set(err, EIO, "zstd: data expands past %zu bytes", cap);
	if (ZSTD_getErrorCode(got) == ZSTD_error_srcSize_wrong)
		return ff_err_set(err, EIO, "zstd: truncated data or garbage after the frame "
			"(block of %zu bytes)", n);
	return ff_err_set(err, EIO, "zstd: %s (block of %zu bytes)", ZSTD_getErrorName(got), n);
}

const struct ff_codec ff_codec_zstd = {
	.name = "zstd",
	.id = 6,
	.help = "level=1..22 (default 15)\n",
	.opts_size = sizeof(struct zs_opts),
	.defaults = zs_defaults,
	.set_option = zs_set,
	.options = zs_options,
	.options_encode = zs_encode,
	.options_decode = zs_decode,
	.ctx_new = zs_new,
	.ctx_free = zs_free,
	.compress = zs_compress,
	.decompress = zs_decompress,
};
