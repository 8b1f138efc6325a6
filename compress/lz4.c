/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* lz4: liblz4 raw blocks, SquashFS id 5.  Options block (always written,
 * the kernel insists on it): u32 version (1, "legacy"), u32 flags (1 = HC).
 * `level` is the HC level; mksquashfs' -Xhc uses the highest, and so do we. */
#include "compress/codec.h"
#include "common/endian.h"

#include <errno.h>
#include <lz4.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>

#define LZ4_VERSION_LEGACY 1u
#define LZ4_FLAG_HC 1u

struct lz4_opts {
	int hc;
	int level;
};

struct lz4_state {
	struct lz4_opts o;
	void *work; /* LZ4_stream_t or LZ4_streamHC_t state */
};

static void lz4_defaults(void *opts, uint32_t block_size)
{
	struct lz4_opts *o = opts;

	(void)block_size;
	o->hc = 0;
	o->level = LZ4HC_CLEVEL_MAX;
}

static int lz4_set(void *opts, uint32_t block_size, const char *key, const char *value,
		   struct ff_err *err)
{
	static const char *const k_hc[] = { "hc", NULL };
	static const char *const k_level[] = { "level", "compression-level", NULL };
	struct lz4_opts *o = opts;
	long v;

	(void)block_size;
	if (ff_opt_is(key, k_hc))
		return ff_opt_bool("lz4", key, value, &o->hc, err);
	if (!ff_opt_is(key, k_level))
		return ff_opt_unknown("lz4", key, err);
	if (ff_opt_int("lz4", key, value, LZ4HC_CLEVEL_MIN, LZ4HC_CLEVEL_MAX, &v, err))
		return -1;
	/* Plain LZ4 has no levels, so a level means HC. */
	o->level = (int)v;
	o->hc = 1;
	return 0;
}

static void lz4_options(const void *opts, int stored, ff_info_fn fn, void *ctx)
{
	const struct lz4_opts *o = opts;

	(void)stored;
	ff_info_bool(fn, ctx, "hc", o->hc);
	if (o->hc)
		ff_info_int(fn, ctx, "level", o->level);
}

static ssize_t lz4_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	const struct lz4_opts *o = opts;

	(void)block_size;
	if (cap < 8)
		return -1;
	ff_put_le32(buf, LZ4_VERSION_LEGACY);
	ff_put_le32(buf + 4, o->hc ? LZ4_FLAG_HC : 0);
	return 8;
}

static int lz4_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		      struct ff_err *err)
{
	struct lz4_opts *o = opts;
	uint32_t version, flags;

	(void)block_size;
	if (len < 8)
		return ff_err_set(err, EINVAL, "lz4 options: block is %zu bytes, need 8", len);
	version = ff_get_le32(buf);
	flags = ff_get_le32(buf + 4);
	if (version != LZ4_VERSION_LEGACY)
		return ff_err_set(err, EINVAL, "lz4 options: version %u, only 1 is supported",
				  version);
	if (flags & ~LZ4_FLAG_HC)
		return ff_err_set(err, EINVAL, "lz4 options: unknown flags 0x%x", flags);
	o->hc = (flags & LZ4_FLAG_HC) != 0;
	return 0;
}

static void lz4_free(void *state)
{
	struct lz4_state *s = state;

	if (s) {
		free(s->work);
		free(s);
	}
}

static void *lz4_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	const struct lz4_opts *o = opts;
	struct lz4_state *s = calloc(1, sizeof(*s));

	(void)block_size;
	if (s)
		s->work = malloc((size_t)(o->hc ? LZ4_sizeofStateHC() : LZ4_sizeofState()));
	if (!s || !s->work) {
		free(s);
		ff_err_set(err, ENOMEM, "lz4: out of memory");
		return NULL;
	}
	s->o = *o;
	return s;
}

static ssize_t lz4_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			    struct ff_err *err)
{
	struct lz4_state *s = state;
	int got;

	if (n > LZ4_MAX_INPUT_SIZE)
		return ff_err_set(err, EFBIG, "lz4: block of %zu bytes is too large", n);
	if (s->o.hc)
		got = LZ4_compress_HC_extStateHC(s->work, (const char *)src, (char *)dst, (int)n,
						 (int)cap, s->o.level);
	else
		got = LZ4_compress_fast_extState(s->work, (const char *)src, (char *)dst, (int)n,
						 (int)cap, 1);
	/* liblz4 reports "does not fit" as 0, which is exactly NOFIT. */
	return got > 0 ? got : FF_CODEC_NOFIT;
}

static ssize_t lz4_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			      struct ff_err *err)
{
	int got;

	(void)state;
	got = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)cap);
	if (got < 0)
		return ff_err_set(err, EIO, "lz4: corrupt or truncated data, or it expands past %zu "
			"bytes (block of %zu bytes, error at input byte %d)", cap, n, -got - 1);
	return got;
}

const struct ff_codec ff_codec_lz4 = {
	.name = "lz4",
	.id = 5,
	.help = "hc (flag: LZ4 high compression)\n"
		"level=3..12 (HC level, implies hc; default 12 as mksquashfs -Xhc)\n",
	.opts_size = sizeof(struct lz4_opts),
	.defaults = lz4_defaults,
	.set_option = lz4_set,
	.options = lz4_options,
	.options_encode = lz4_encode,
	.options_decode = lz4_decode,
	.ctx_new = lz4_new,
	.ctx_free = lz4_free,
	.compress = lz4_compress,
	.decompress = lz4_decompress,
};
