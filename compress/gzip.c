/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* gzip: zlib streams (deflate with the 2-byte zlib header), SquashFS id 1.
 * Options block: u32 level, u16 window, u16 strategy bitmask.
 *
 * Two encoders make the same kind of stream, which the kernel inflates:
 *  - libdeflate (the default): whole-buffer compression, which is what a
 *    SquashFS block is.  Level 9 runs about 3x faster than zlib's level 9
 *    and its output is slightly smaller; levels 10..12 (near-optimal
 *    parsing) are a few percent smaller again, at close to zlib-9's time.
 *  - zlib (-X zlib, or any of mksquashfs' -Xcompression-level,
 *    -Xwindow-size, -Xstrategy): the same library and calls as mksquashfs,
 *    so images match its byte for byte.
 * Decompression always uses libdeflate: a block is decoded whole into a
 * buffer of known size, the case libdeflate is built for, about twice as
 * fast as zlib's streaming inflate.
 *
 * The options block records a deflate level; the encoder is not recorded.
 * libdeflate level 9 stores no block (what no block means: level 9, window
 * 15), levels 1..8 store {level, 15, 0}.  Levels 10..12 have no zlib
 * equivalent, so the level field holds 10..12 as it is: the kernel and the
 * readers ignore the block, unsquashfs -stat calls the level bad and
 * mksquashfs refuses to append, rather than continuing with another
 * encoder under a level it would misread. */
#include "compress/codec.h"
#include "common/endian.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libdeflate.h>
#include <zlib.h>

#define GZ_LEVEL 9     /* default for both encoders; see docs/ARCHITECTURE.md */
#define GZ_ZLIB_MAX 9  /* zlib's and mksquashfs' highest level */
#define GZ_LD_MAX 12   /* libdeflate's highest level */
#define GZ_WINDOW 15
#define GZ_NSTRAT 5

enum gz_encoder { GZ_LIBDEFLATE, GZ_ZLIB };

struct gz_opts {
	int encoder;
	int level;
	int level_set; /* given by the user: switching encoder must not drop it */
	int window;
	uint32_t strategies; /* bit i = strat_names[i]; 0 = only the default */
	int from_image; /* decoded from an options block: the encoder is unknown */
};

struct gz_state {
	struct gz_opts o;
	z_stream def;
	int def_ready;
	struct libdeflate_compressor *ld;
	struct libdeflate_decompressor *inf;
	uint8_t *scratch; /* holds the best result while other strategies run */
	size_t scratch_cap;
};

/* Bit order as mksquashfs stores them in the options block. */
static const char *const strat_names[] = { "default", "filtered", "huffman_only",
					   "run_length_encoded", "fixed", NULL };
static const char *const strat_alias[] = { NULL, NULL, "huffman", "rle", NULL, NULL };
static const int strat_zlib[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE,
				  Z_FIXED };

static void gz_defaults(void *opts, uint32_t block_size)
{
	struct gz_opts *o = opts;

	(void)block_size;
	memset(o, 0, sizeof(*o));
	o->encoder = GZ_LIBDEFLATE;
	o->level = GZ_LEVEL;
	o->window = GZ_WINDOW;
}

/* An image without an options block: deflate level 9, window 15, written by
 * an encoder the image does not name. */
static void gz_image_defaults(void *opts, uint32_t block_size)
{
	struct gz_opts *o = opts;

	gz_defaults(opts, block_size);
	o->encoder = GZ_ZLIB;
	o->from_image = 1;
}

/* The encoder named by `why` (an option) takes over; a level already given
 * must be one it has. */
static int gz_use(struct gz_opts *o, int encoder, const char *why, struct ff_err *err)
{
	if (encoder == GZ_ZLIB && o->level > GZ_ZLIB_MAX) {
		if (o->level_set)
			return ff_err_set(err, EINVAL, "gzip: %s: zlib's deflate has levels "
					  "1..9, and level=%d is libdeflate's", why, o->level);
		o->level = GZ_LEVEL;
	}
	if (encoder == GZ_LIBDEFLATE && (o->window != GZ_WINDOW || o->strategies))
		return ff_err_set(err, EINVAL, "gzip: %s: window and strategy are zlib's "
				  "options, libdeflate has neither", why);
	o->encoder = encoder;
	return 0;
}

static int gz_set_level(struct gz_opts *o, const char *key, const char *value, int zlib,
			struct ff_err *err)
{
	long v;

	if (zlib && gz_use(o, GZ_ZLIB, key, err))
		return -1;
	if (ff_opt_int("gzip", key, value, 1, o->encoder == GZ_ZLIB ? GZ_ZLIB_MAX : GZ_LD_MAX,
		       &v, err))
		return -1;
	o->level = (int)v;
	o->level_set = 1;
	return 0;
}

static int gz_set_encoder(struct gz_opts *o, const char *key, const char *value,
			  struct ff_err *err)
{
	int on;

	if (ff_opt_bool("gzip", key, value, &on, err))
		return -1;
	/* "zlib=no" is "libdeflate", "libdeflate=no" is "zlib". */
	return gz_use(o, on == !strcasecmp(key, "zlib") ? GZ_ZLIB : GZ_LIBDEFLATE, key, err);
}

/* mksquashfs' spellings (compression-level, window-size, strategy) and
 * window/strategy ask for its exact behaviour, so they select zlib. */
static int gz_set(void *opts, uint32_t block_size, const char *key, const char *value,
		  struct ff_err *err)
{
	static const char *const k_encoder[] = { "zlib", "libdeflate", NULL };
	static const char *const k_level[] = { "level", NULL };
	static const char *const k_zlevel[] = { "compression-level", NULL };
	static const char *const k_window[] = { "window", "window-size", NULL };
	static const char *const k_strat[] = { "strategy", "strategies", NULL };
	struct gz_opts *o = opts;
	long v;

	(void)block_size;
	if (ff_opt_is(key, k_encoder))
		return gz_set_encoder(o, key, value, err);
	if (ff_opt_is(key, k_level) || ff_opt_is(key, k_zlevel))
		return gz_set_level(o, key, value, ff_opt_is(key, k_zlevel), err);
	if (ff_opt_is(key, k_window)) {
		if (gz_use(o, GZ_ZLIB, key, err) ||
		    ff_opt_int("gzip", key, value, 8, 15, &v, err))
			return -1;
		o->window = (int)v;
		return 0;
	}
	if (ff_opt_is(key, k_strat)) {
		uint32_t m;

		if (gz_use(o, GZ_ZLIB, key, err) ||
		    ff_opt_list("gzip", key, value, strat_names, strat_alias, &m, err))
			return -1;
		/* "default" alone is what no list means (mksquashfs agrees). */
		o->strategies = m == 1 ? 0 : m;
		return 0;
	}
	return ff_opt_unknown("gzip", key, err);
}

/* "libdeflate,level=9" or "zlib,level=9,window=15,strategy=default"; read
 * from an image, a level 1..9 is shown without an encoder, which the
 * options block does not record. */
static void gz_options(const void *opts, int stored, ff_info_fn fn, void *ctx)
{
	const struct gz_opts *o = opts;

	(void)stored;
	if (o->encoder == GZ_LIBDEFLATE) {
		ff_info_str(fn, ctx, "encoder", "libdeflate");
		ff_info_int(fn, ctx, "level", o->level);
		return;
	}
	if (!o->from_image)
		ff_info_str(fn, ctx, "encoder", "zlib");
	ff_info_int(fn, ctx, "level", o->level);
	ff_info_int(fn, ctx, "window", o->window);
	ff_info_names(fn, ctx, "strategy", o->strategies ? o->strategies : 1, strat_names, NULL);
}

static ssize_t gz_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	const struct gz_opts *o = opts;

	(void)block_size;
	/* No block means level 9, window 15, default strategy: mksquashfs
	 * writes none then, and neither do we, whichever the encoder. */
	if (o->level == GZ_LEVEL && o->window == GZ_WINDOW && !o->strategies)
		return 0;
	if (cap < 8)
		return -1;
	ff_put_le32(buf, (uint32_t)o->level);
	ff_put_le16(buf + 4, (uint16_t)o->window);
	ff_put_le16(buf + 6, (uint16_t)o->strategies);
	return 8;
}

/* Levels 10..12 can only be libdeflate's (see the top of this file); 1..9
 * may be either encoder's, and zlib's is the one that reproduces the
 * window and strategies. */
static int gz_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		     struct ff_err *err)
{
	struct gz_opts *o = opts;
	uint32_t level, window, strat;

	if (len < 8)
		return ff_err_set(err, EINVAL, "gzip options: block is %zu bytes, need 8", len);
	level = ff_get_le32(buf);
	window = ff_get_le16(buf + 4);
	strat = ff_get_le16(buf + 6);
	if (level < 1 || level > GZ_LD_MAX)
		return ff_err_set(err, EINVAL, "gzip options: level %u not in 1..12", level);
	if (window < 8 || window > 15)
		return ff_err_set(err, EINVAL, "gzip options: window %u not in 8..15", window);
	if (strat & ~((1u << GZ_NSTRAT) - 1))
		return ff_err_set(err, EINVAL, "gzip options: unknown strategy bits 0x%x", strat);
	if (level > GZ_ZLIB_MAX && (window != GZ_WINDOW || (strat & ~1u)))
		return ff_err_set(err, EINVAL, "gzip options: level %u (libdeflate's) with zlib's "
				  "window %u or strategies 0x%x", level, window, strat);
	gz_image_defaults(o, block_size);
	o->encoder = level > GZ_ZLIB_MAX ? GZ_LIBDEFLATE : GZ_ZLIB;
	o->level = (int)level;
	o->window = (int)window;
	o->strategies = strat == 1 ? 0 : strat;
	return 0;
}

static void gz_free(void *state)
{
	struct gz_state *s = state;

	if (!s)
		return;
	if (s->def_ready)
		deflateEnd(&s->def);
	libdeflate_free_compressor(s->ld);
	libdeflate_free_decompressor(s->inf);
	free(s->scratch);
	free(s);
}

/* The encoder the options name, made on the first block to compress: a
 * reader's contexts only decompress, and libdeflate's level 10..12 state
 * is large. */
static int gz_new_encoder(struct gz_state *s, struct ff_err *err)
{
	if (s->o.encoder == GZ_LIBDEFLATE) {
		s->ld = libdeflate_alloc_compressor(s->o.level);
		if (!s->ld)
			return ff_err_set(err, ENOMEM, "gzip: cannot set up libdeflate level %d",
					  s->o.level);
		return 0;
	}
	if (deflateInit2(&s->def, s->o.level, Z_DEFLATED, s->o.window, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return ff_err_set(err, ENOMEM, "gzip: deflateInit2 failed (level %d, window %d)",
				  s->o.level, s->o.window);
	s->def_ready = 1;
	return 0;
}

static void *gz_new(const void *opts, uint32_t block_size, struct ff_err *err)
{
	struct gz_state *s = calloc(1, sizeof(*s));

	(void)block_size;
	if (!s) {
		ff_err_set(err, ENOMEM, "gzip: out of memory");
		return NULL;
	}
	s->o = *(const struct gz_opts *)opts;
	s->inf = libdeflate_alloc_decompressor();
	if (!s->inf) {
		gz_free(s);
		ff_err_set(err, ENOMEM, "gzip: out of memory for the decompressor");
		return NULL;
	}
	return s;
}

/* One deflate run with strategy `strat` into dst; NOFIT when it overflows. */
static ssize_t gz_run(struct gz_state *s, int strat, const uint8_t *src, size_t n, uint8_t *dst,
		      size_t cap, struct ff_err *err)
{
	int ret;

	if (deflateReset(&s->def) != Z_OK || deflateParams(&s->def, s->o.level, strat) != Z_OK)
		return ff_err_set(err, EIO, "gzip: cannot reset the deflate stream");
	s->def.next_in = (Bytef *)src;
	s->def.avail_in = (uInt)n;
	s->def.next_out = dst;
	s->def.avail_out = (uInt)cap;
	ret = deflate(&s->def, Z_FINISH);
	if (ret == Z_STREAM_END)
		return (ssize_t)s->def.total_out;
	if (ret == Z_OK || ret == Z_BUF_ERROR)
		return FF_CODEC_NOFIT;
	return ff_err_set(err, EIO, "gzip: deflate failed (%d)", ret);
}

static ssize_t gz_variant(void *state, int i, const uint8_t *src, size_t n, uint8_t *dst,
			  size_t cap, struct ff_err *err)
{
	return gz_run(state, strat_zlib[i], src, n, dst, cap, err);
}

static ssize_t gz_compress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			   struct ff_err *err)
{
	struct gz_state *s = state;

	if (!s->ld && !s->def_ready && gz_new_encoder(s, err))
		return -1;
	/* libdeflate returns 0 when the result does not fit: FF_CODEC_NOFIT. */
	if (s->ld)
		return (ssize_t)libdeflate_zlib_compress(s->ld, src, n, dst, cap);
	if (!s->o.strategies)
		return gz_run(s, Z_DEFAULT_STRATEGY, src, n, dst, cap, err);
	if (ff_codec_reserve(&s->scratch, &s->scratch_cap, cap, "gzip", err))
		return -1;
	/* Every chosen strategy is tried and the smallest kept, as mksquashfs does. */
	return ff_codec_smallest(s, gz_variant, s->o.strategies, GZ_NSTRAT, 0, s->scratch, src, n,
				 dst, cap, err);
}

static ssize_t gz_decompress(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     struct ff_err *err)
{
	struct gz_state *s = state;
	size_t in_used = 0, out_len = 0;
	enum libdeflate_result r;

	r = libdeflate_zlib_decompress_ex(s->inf, src, n, dst, cap, &in_used, &out_len);
	if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
		return ff_err_set(err, EIO, "gzip: data expands past %zu bytes", cap);
	if (r != LIBDEFLATE_SUCCESS)
		return ff_err_set(err, EIO, "gzip: corrupt or truncated data (block of %zu bytes)",
				  n);
	if (in_used != n)
		return ff_err_set(err, EIO, "gzip: %zu bytes of garbage after the stream "
			"(block of %zu bytes)", n - in_used, n);
	return (ssize_t)out_len;
}

const struct ff_codec ff_codec_gzip = {
	.name = "gzip",
	.id = 1,
	.help = "level=1..12 (libdeflate; default 9)\n"
		"zlib (compress with zlib as mksquashfs does: level=1..9, and the options below;\n"
		"  mksquashfs' -Xcompression-level, -Xwindow-size, -Xstrategy imply it)\n"
		"window=8..15 (zlib; default 15)\n"
		"strategy=LIST of default,filtered,huffman_only,run_length_encoded|rle,fixed "
		"(zlib; try each, keep the smallest; default: default)\n",
	.opts_size = sizeof(struct gz_opts),
	.defaults = gz_defaults,
	.image_defaults = gz_image_defaults,
	.set_option = gz_set,
	.options = gz_options,
	.options_encode = gz_encode,
	.options_decode = gz_decode,
	.ctx_new = gz_new,
	.ctx_free = gz_free,
	.compress = gz_compress,
	.decompress = gz_decompress,
};
