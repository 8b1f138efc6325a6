/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* xz: the .xz container with a CRC32 check (what the kernel's xz_dec
 * mounts), SquashFS id 4.  Options block: u32 dictionary size, u32 BCJ filter
 * bitmask.  Preset level and "extreme" only steer the encoder and are not
 * stored. */
#include "compress/codec.h"
#include "compress/lzma_run.h"
#include "compress/xz_check.h"
#include "common/endian.h"

#include <libdeflate.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XZ_LEVEL 6
#define XZ_MIN_DICT 8192u
#define XZ_NBCJ 6

struct xz_opts {
	int level;
	int extreme;
	struct ff_lzma_bits bits; /* -Xlc -Xlp -Xpb */
	uint32_t dict;
	uint32_t bcj; /* bit i = bcj_names[i] */
};

struct xz_state {
	lzma_options_lzma lzma;
	uint32_t bcj;
	/* One encoder per filter chain (none, then each BCJ): re-initialising
	 * a stream with the same chain reuses its memory, switching chains
	 * would reallocate on every block. */
	lzma_stream enc[1 + XZ_NBCJ];
	lzma_stream dec;
	uint8_t *scratch;
	size_t scratch_cap;
};

/* Bit order as mksquashfs stores them in the options block. */
static const char *const bcj_names[] = { "x86", "powerpc", "ia64", "arm", "armthumb", "sparc",
					 NULL };
static const lzma_vli bcj_ids[] = { LZMA_FILTER_X86, LZMA_FILTER_POWERPC, LZMA_FILTER_IA64,
				    LZMA_FILTER_ARM, LZMA_FILTER_ARMTHUMB, LZMA_FILTER_SPARC };

static uint32_t default_dict(uint32_t block_size)
{
	/* The kernel assumes this when an image has no options block. */
	return block_size > XZ_MIN_DICT ? block_size : XZ_MIN_DICT;
}

static void xz_defaults(void *opts, uint32_t block_size)
{
	struct xz_opts *o = opts;

	o->level = XZ_LEVEL;
	o->extreme = 0;
	ff_lzma_bits_init(&o->bits);
	o->dict = default_dict(block_size);
	o->bcj = 0;
}

/* The xz header stores only 2^n or 2^n + 2^(n-1). */
static int dict_storable(uint32_t d)
{
	uint32_t low = d & -d;

	return d == low || d == low * 3;
}

static int xz_set_dict(struct xz_opts *o, uint32_t block_size, const char *key,
		       const char *value, struct ff_err *err)
{
	uint32_t d, max = default_dict(block_size);

	if (ff_opt_size("xz", key, value, block_size, &d, err))
		return -1;
	if (d < XZ_MIN_DICT || d > max)
		return ff_err_set(err, EINVAL, "xz: %s=%s: %u bytes not in %u..%u (block size)", key,
				  value, d, XZ_MIN_DICT, max);
	if (!dict_storable(d))
		return ff_err_set(err, EINVAL, "xz: %s=%s: %u is not 2^n or 2^n+2^(n-1)", key,
				  value, d);
	o->dict = d;
	return 0;
}

static int xz_set(void *opts, uint32_t block_size, const char *key, const char *value,
		  struct ff_err *err)
{
	static const char *const k_level[] = { "level", "preset", "compression-level", NULL };
	static const char *const k_extreme[] = { "extreme", "e", NULL };
	static const char *const k_dict[] = { "dict", "dict-size", "dictionary-size", NULL };
	static const char *const k_bcj[] = { "bcj", "filter", "filters", NULL };
	struct xz_opts *o = opts;
	long v;

	if (ff_opt_is(key, k_level)) {
		if (ff_opt_int("xz", key, value, 0, 9, &v, err))
			return -1;
		o->level = (int)v;
		return 0;
	}
	if (ff_opt_is(key, k_extreme))
		return ff_opt_bool("xz", key, value, &o->extreme, err);
	v = ff_lzma_bits_set(&o->bits, "xz", key, value, err);
	if (v <= 0)
		return (int)v;
	if (ff_opt_is(key, k_dict))
		return xz_set_dict(o, block_size, key, value, err);
	if (ff_opt_is(key, k_bcj))
		return ff_opt_list("xz", key, value, bcj_names, NULL, &o->bcj, err);
	return ff_opt_unknown("xz", key, err);
}

/* The preset level and extreme only steered the encoder: an options
 * block stores the dictionary and the BCJ filters. */
static void xz_options(const void *opts, int stored, ff_info_fn fn, void *ctx)
{
	const struct xz_opts *o = opts;

	if (!stored) {
		ff_info_int(fn, ctx, "level", o->level);
		ff_info_bool(fn, ctx, "extreme", o->extreme);
	}
	ff_info_uint(fn, ctx, "dict", o->dict);
	ff_info_names(fn, ctx, "bcj", o->bcj, bcj_names, NULL);
	if (!stored)
		ff_lzma_bits_options(&o->bits, fn, ctx);
}

static ssize_t xz_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	const struct xz_opts *o = opts;

	if (o->dict == default_dict(block_size) && !o->bcj)
		return 0;
	if (cap < 8)
		return -1;
	ff_put_le32(buf, o->dict);
	ff_put_le32(buf + 4, o->bcj);
	return 8;
}

static int xz_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		     struct ff_err *err)
{
	struct xz_opts *o = opts;
	uint32_t dict, flags;

	(void)block_size;
	/* mksquashfs writes exactly 8 bytes; another length (OpenWrt's old
	 * builder wrote 12) is some other layout, whose words we cannot name. */
	if (len != 8)
		return ff_err_set(err, EINVAL, "xz options: block is %zu bytes, mksquashfs writes 8",
				  len);
	dict = ff_get_le32(buf);
	flags = ff_get_le32(buf + 4);
	/* The kernel's own check: anything else is refused at mount. */
	if (!dict || !dict_storable(dict))
		return ff_err_set(err, EINVAL,
				  "xz options: dictionary size %u is not 2^n or 2^n+2^(n-1)", dict);
	/* Bits past the known filters: not a filter mask we can read. */
	if (flags >> XZ_NBCJ)
		return ff_err_set(err, EINVAL, "xz options: filter mask 0x%x has unknown bits",
				  flags);
	o->dict = dict;
	o->bcj = flags;
	return 0;
}

static void xz_free(void *state)
{
	struct xz_state *s = state;

	if (s) {
		for (int i = 0; i <= XZ_NBCJ; i++)
			lzma_end(&s->enc[i]);
		lzma_end(&s->dec);
		free(s->scratch);
		free(s);
	}
}

static void *xz_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	const struct xz_opts *o = opts;
	struct xz_state *s = calloc(1, sizeof(*s));
	uint32_t preset = (uint32_t)o->level | (o->extreme ? LZMA_PRESET_EXTREME : 0);

	(void)block_size;
	if (!s) {
		ff_err_set(err, ENOMEM, "xz: out of memory");
		return NULL;
	}
	if (lzma_lzma_preset(&s->lzma, preset)) {
		free(s);
		ff_err_set(err, EINVAL, "xz: unsupported preset %d", o->level);
		return NULL;
	}
	s->lzma.dict_size = o->dict;
	if (ff_lzma_bits_apply(&o->bits, "xz", &s->lzma, err)) {
		free(s);
		return NULL;
	}
	s->bcj = o->bcj;
	for (int i = 0; i <= XZ_NBCJ; i++)
		s->enc[i] = (lzma_stream)LZMA_STREAM_INIT;
	s->dec = (lzma_stream)LZMA_STREAM_INIT;
	return s;
}

/* One .xz stream with an optional BCJ filter (bcj < 0: none). */
static ssize_t xz_run(struct xz_state *s, int bcj, const uint8_t *src, size_t n, uint8_t *dst,
		      size_t cap, struct ff_err *err)
{
	lzma_filter filters[3];
	int i = 0;
	lzma_ret ret;

	if (bcj >= 0)
		filters[i++] = (lzma_filter){ .id = bcj_ids[bcj], .options = NULL };
	filters[i++] = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = &s->lzma };
	filters[i] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN, .options = NULL };
	ret = lzma_stream_encoder(&s->enc[bcj + 1], filters, LZMA_CHECK_CRC32);
	if (ret != LZMA_OK)
		return ff_err_set(err, EIO, "xz: encoder setup failed: %s", ff_lzma_strerror(ret));
	return ff_lzma_encode_run(&s->enc[bcj + 1], "xz", src, n, dst, cap, err);
}

static ssize_t xz_variant(void *state, int i, const uint8_t *src, size_t n, uint8_t *dst,
			  size_t cap, struct ff_err *err)
{
	return xz_run(state, i, src, n, dst, cap, err);
}

static ssize_t xz_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			   struct ff_err *err)
{
	struct xz_state *s = state;
	ssize_t best;

	best = xz_run(s, -1, src, n, dst, cap, err);
	if (best < 0 || !s->bcj)
		return best;
	if (ff_codec_reserve(&s->scratch, &s->scratch_cap, cap, "xz", err))
		return -1;
	/* As mksquashfs: no filter plus each chosen BCJ filter, smallest wins. */
	return ff_codec_smallest(s, xz_variant, s->bcj, XZ_NBCJ, best, s->scratch, src, n, dst,
				 cap, err);
}

static ssize_t xz_run_decoder(struct xz_state *s, uint32_t flags, const uint8_t *src, size_t n,
			 uint8_t *dst, size_t cap, struct ff_err *err)
{
	lzma_ret ret;
	ssize_t got;

	ret = lzma_stream_decoder(&s->dec, FF_LZMA_BLOCK_MEMLIMIT, flags);
	if (ret != LZMA_OK)
		return ff_err_set(err, EIO, "xz: decoder setup failed: %s", ff_lzma_strerror(ret));
	got = ff_lzma_decode_run(&s->dec, "xz", src, n, dst, cap, err);
	if (got >= 0 && s->dec.avail_in)
		return ff_err_set(err, EIO, "xz: %zu bytes of garbage after the stream "
			"(block of %zu bytes)", s->dec.avail_in, n);
	return got;
}

/* A CRC32 stream's check is compared here with libdeflate's crc32, the
 * rest of the stream by liblzma (xz_check.c says why). */
static ssize_t xz_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     struct ff_err *err)
{
	int own = ff_xz_has_crc32(src, n);
	ssize_t got = xz_run_decoder(state, own ? LZMA_IGNORE_CHECK : 0, src, n, dst, cap, err);
	uint32_t stored, sum;
	int blocks;

	if (got < 0 || !own)
		return got;
	blocks = ff_xz_stored_crc32(src, n, &stored);
	if (blocks < 0) /* several blocks: liblzma checks each */
		return xz_run_decoder(state, 0, src, n, dst, cap, err);
	if (blocks == 0)
		return got;
	sum = libdeflate_crc32(0, dst, (size_t)got);
	if (sum != stored)
		return ff_err_set(err, EIO, "xz: CRC32 check failed: the %zd bytes decoded sum to "
			"0x%08x, the stream says 0x%08x (block of %zu bytes)", got, sum, stored, n);
	return got;
}

const struct ff_codec ff_codec_xz = {
	.name = "xz",
	.id = 4,
	.help = "level=0..9 (default 6)\n"
		"extreme (flag)\n"
		"lc=0..4 lp=0..4 pb=0..4 (LZMA literal/position bits; default the preset's)\n"
		"dict=SIZE (8K..block size, 2^n or 2^n+2^(n-1); N, NK, NM or P% of the block; "
		"default block size)\n"
		"bcj=LIST of x86,arm,armthumb,powerpc,sparc,ia64 (try none and each, keep the "
		"smallest)\n",
	.opts_size = sizeof(struct xz_opts),
	.defaults = xz_defaults,
	.set_option = xz_set,
	.options = xz_options,
	.options_encode = xz_encode,
	.options_decode = xz_decode,
	.ctx_new = xz_new,
	.ctx_free = xz_free,
	.compress = xz_compress,
	.decompress = xz_decompress,
};
