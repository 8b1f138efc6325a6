/* gzip: zlib streams (deflate with the 2-byte zlib header), SquashFS id 1.
 * Options block: u32 level, u16 window, u16 strategy bitmask.
 *
 * Compression uses zlib, so images match mksquashfs' byte for byte.
 * Decompression uses libdeflate: a SquashFS block is always decoded whole
 * into a buffer of known size, which is the one case libdeflate is built
 * for, and it decodes about twice as fast as zlib's streaming inflate. */
#include "compress/codec.h"
#include "common/endian.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

#define GZ_LEVEL 9
#define GZ_WINDOW 15
#define GZ_NSTRAT 5

struct gz_opts {
	int level;
	int window;
	uint32_t strategies; /* bit i = strat_names[i]; 0 = only the default */
};

struct gz_state {
	struct gz_opts o;
	z_stream def;
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
	o->level = GZ_LEVEL;
	o->window = GZ_WINDOW;
	o->strategies = 0;
}

static int gz_set(void *opts, uint32_t block_size, const char *key, const char *value,
		  struct ff_err *err)
{
	static const char *const k_level[] = { "level", "compression-level", NULL };
	static const char *const k_window[] = { "window", "window-size", NULL };
	static const char *const k_strat[] = { "strategy", "strategies", NULL };
	struct gz_opts *o = opts;
	long v;

	(void)block_size;
	if (ff_opt_is(key, k_level)) {
		if (ff_opt_int("gzip", key, value, 1, 9, &v, err))
			return -1;
		o->level = (int)v;
		return 0;
	}
	if (ff_opt_is(key, k_window)) {
		if (ff_opt_int("gzip", key, value, 8, 15, &v, err))
			return -1;
		o->window = (int)v;
		return 0;
	}
	if (ff_opt_is(key, k_strat)) {
		uint32_t m;

		if (ff_opt_list("gzip", key, value, strat_names, strat_alias, &m, err))
			return -1;
		/* "default" alone is what no list means (mksquashfs agrees). */
		o->strategies = m == 1 ? 0 : m;
		return 0;
	}
	return ff_opt_unknown("gzip", key, err);
}

static void gz_describe(const void *opts, char *buf, size_t cap)
{
	const struct gz_opts *o = opts;
	char list[128];

	ff_opt_list_text(o->strategies ? o->strategies : 1, strat_names, list, sizeof(list));
	snprintf(buf, cap, "level=%d,window=%d,strategy=%s", o->level, o->window, list);
}

static ssize_t gz_encode(const void *opts, uint32_t block_size, uint8_t *buf, size_t cap)
{
	const struct gz_opts *o = opts;

	(void)block_size;
	if (o->level == GZ_LEVEL && o->window == GZ_WINDOW && !o->strategies)
		return 0;
	if (cap < 8)
		return -1;
	ff_put_le32(buf, (uint32_t)o->level);
	ff_put_le16(buf + 4, (uint16_t)o->window);
	ff_put_le16(buf + 6, (uint16_t)o->strategies);
	return 8;
}

static int gz_decode(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
		     struct ff_err *err)
{
	struct gz_opts *o = opts;
	uint32_t level, window, strat;

	(void)block_size;
	if (len < 8)
		return ff_err_set(err, EINVAL, "gzip options: block is %zu bytes, need 8", len);
	level = ff_get_le32(buf);
	window = ff_get_le16(buf + 4);
	strat = ff_get_le16(buf + 6);
	if (level < 1 || level > 9)
		return ff_err_set(err, EINVAL, "gzip options: level %u not in 1..9", level);
	if (window < 8 || window > 15)
		return ff_err_set(err, EINVAL, "gzip options: window %u not in 8..15", window);
	if (strat & ~((1u << GZ_NSTRAT) - 1))
		return ff_err_set(err, EINVAL, "gzip options: unknown strategy bits 0x%x", strat);
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
	deflateEnd(&s->def);
	libdeflate_free_decompressor(s->inf);
	free(s->scratch);
	free(s);
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
	if (deflateInit2(&s->def, s->o.level, Z_DEFLATED, s->o.window, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK) {
		ff_err_set(err, ENOMEM, "gzip: deflateInit2 failed (level %d, window %d)",
			   s->o.level, s->o.window);
		free(s);
		return NULL;
	}
	s->inf = libdeflate_alloc_decompressor();
	if (!s->inf) {
		deflateEnd(&s->def);
		free(s);
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
	.help = "level=1..9 (default 9)\n"
		"window=8..15 (default 15)\n"
		"strategy=LIST of default,filtered,huffman_only,run_length_encoded|rle,fixed "
		"(try each, keep the smallest; default: default)\n",
	.opts_size = sizeof(struct gz_opts),
	.defaults = gz_defaults,
	.set_option = gz_set,
	.describe = gz_describe,
	.options_encode = gz_encode,
	.options_decode = gz_decode,
	.ctx_new = gz_new,
	.ctx_free = gz_free,
	.compress = gz_compress,
	.decompress = gz_decompress,
};
