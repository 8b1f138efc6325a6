/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* lzma: legacy LZMA-alone streams, SquashFS id 2.  The kernel cannot mount
 * these; readers must still decompress them because mksquashfs writes them.
 * There is no options block.  Like mksquashfs we fill the uncompressed size
 * into the 13-byte header; the decoder takes both that and the
 * "unknown size" form. */
#include "compress/codec.h"
#include "compress/lzma_run.h"
#include "common/endian.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LZMA_LEVEL 6
#define LZMA_HEADER 13
#define LZMA_MIN_DICT 4096u

struct lzma_opts {
	int level;
	int extreme;
	struct ff_lzma_bits bits; /* -Xlc -Xlp -Xpb */
	uint32_t dict;
};

struct lzma_state {
	lzma_options_lzma lzma;
	lzma_stream enc;
	lzma_stream dec;
};

static void lzma_defaults(void *opts, uint32_t block_size)
{
	struct lzma_opts *o = opts;

	o->level = LZMA_LEVEL;
	o->extreme = 0;
	ff_lzma_bits_init(&o->bits);
	o->dict = block_size > LZMA_MIN_DICT ? block_size : LZMA_MIN_DICT;
}

static int lzma_set(void *opts, uint32_t block_size, const char *key, const char *value,
		    struct ff_err *err)
{
	static const char *const k_level[] = { "level", "preset", "compression-level", NULL };
	static const char *const k_extreme[] = { "extreme", "e", NULL };
	struct lzma_opts *o = opts;
	long v;

	(void)block_size;
	if (ff_opt_is(key, k_level)) {
		if (ff_opt_int("lzma", key, value, 0, 9, &v, err))
			return -1;
		o->level = (int)v;
		return 0;
	}
	if (ff_opt_is(key, k_extreme))
		return ff_opt_bool("lzma", key, value, &o->extreme, err);
	v = ff_lzma_bits_set(&o->bits, "lzma", key, value, err);
	if (v <= 0)
		return (int)v;
	return ff_opt_unknown("lzma", key, err);
}

static void lzma_options(const void *opts, int stored, ff_info_fn fn, void *ctx)
{
	const struct lzma_opts *o = opts;

	(void)stored;
	ff_info_int(fn, ctx, "level", o->level);
	ff_info_bool(fn, ctx, "extreme", o->extreme);
	ff_lzma_bits_options(&o->bits, fn, ctx);
}

static ssize_t lzma_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	(void)opts, (void)block_size, (void)buf, (void)cap;
	return 0;
}

static int lzma_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		       struct ff_err *err)
{
	(void)opts, (void)block_size, (void)buf;
	return ff_err_set(err, EINVAL, "lzma options: lzma has no options, found a %zu-byte block",
			  len);
}

static void lzma_free(void *state)
{
	struct lzma_state *s = state;

	if (s) {
		lzma_end(&s->enc);
		lzma_end(&s->dec);
		free(s);
	}
}

static void *lzma_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	const struct lzma_opts *o = opts;
	struct lzma_state *s = calloc(1, sizeof(*s));
	uint32_t preset = (uint32_t)o->level | (o->extreme ? LZMA_PRESET_EXTREME : 0);

	(void)block_size;
	if (!s) {
		ff_err_set(err, ENOMEM, "lzma: out of memory");
		return NULL;
	}
	if (lzma_lzma_preset(&s->lzma, preset)) {
		free(s);
		ff_err_set(err, EINVAL, "lzma: unsupported preset %d", o->level);
		return NULL;
	}
	s->lzma.dict_size = o->dict;
	if (ff_lzma_bits_apply(&o->bits, "lzma", &s->lzma, err)) {
		free(s);
		return NULL;
	}
	s->enc = (lzma_stream)LZMA_STREAM_INIT;
	s->dec = (lzma_stream)LZMA_STREAM_INIT;
	return s;
}

static ssize_t lzma_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     struct ff_err *err)
{
	struct lzma_state *s = state;
	lzma_ret ret;
	ssize_t got;

	ret = lzma_alone_encoder(&s->enc, &s->lzma);
	if (ret != LZMA_OK)
		return ff_err_set(err, EIO, "lzma: encoder setup failed: %s", ff_lzma_strerror(ret));
	got = ff_lzma_encode_run(&s->enc, "lzma", src, n, dst, cap, err);
	if (got >= LZMA_HEADER)
		ff_put_le64(dst + 5, n);
	return got;
}

static ssize_t lzma_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			       struct ff_err *err)
{
	struct lzma_state *s = state;
	lzma_ret ret;

	if (n < LZMA_HEADER)
		return ff_err_set(err, EIO, "lzma: truncated header (%zu of %d bytes)", n,
				  LZMA_HEADER);
	ret = lzma_alone_decoder(&s->dec, FF_LZMA_BLOCK_MEMLIMIT);
	if (ret != LZMA_OK)
		return ff_err_set(err, EIO, "lzma: decoder setup failed: %s", ff_lzma_strerror(ret));
	return ff_lzma_decode_run(&s->dec, "lzma", src, n, dst, cap, err);
}

const struct ff_codec ff_codec_lzma = {
	.name = "lzma",
	.id = 2,
	.help = "level=0..9 (default 6)\n"
		"extreme (flag)\n"
		"lc=0..4 lp=0..4 pb=0..4 (LZMA literal/position bits; default the preset's)\n"
		"(legacy: the Linux kernel cannot mount lzma images)\n",
	.kernel_unsupported = 1,
	.opts_size = sizeof(struct lzma_opts),
	.defaults = lzma_defaults,
	.set_option = lzma_set,
	.options = lzma_options,
	.options_encode = lzma_encode,
	.options_decode = lzma_decode,
	.ctx_new = lzma_new,
	.ctx_free = lzma_free,
	.compress = lzma_compress,
	.decompress = lzma_decompress,
};
