/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Every codec call of the EROFS writer, in one place.  EROFS wants each
 * physical cluster filled: "compress as much of this input as fits in
 * CAP bytes".  liblz4 (LZ4_compress_destSize, LZ4_compress_HC_destSize)
 * and liblzma's MicroLZMA encoder do that themselves; for deflate
 * (libdeflate) and zstd (libzstd) a prefix that fills it is searched
 * from the stream sizes of a few attempts (fit_search), deterministic as
 * each attempt is.  A stream starting with
 * a zero byte is refused (0 returned): with 0-padding the kernel skips
 * the zeros in front of a stream, so its first byte must not be one. */
#include <errno.h>
#include <libdeflate.h>
#include <lz4.h>
#include <lz4hc.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "erofs/compressor.h"
#include "erofs/layout.h"

struct ew_codec {
	enum ff_erofs_codec kind;
	int level;
	uint32_t dict;
	void *lz4hc_state;
	lzma_stream lz;
	int lz_ready;
	struct libdeflate_compressor *dfl;
	ZSTD_CCtx *zc;
	uint8_t *tmp;              /* the attempts of the search for a fit */
	size_t tmp_cap;
	uint32_t ratio;            /* the file's last extent: input bytes per
				      stream byte, times 256; 0: none yet */
};

int ew_codec_default_level(enum ff_erofs_codec kind)
{
	switch (kind) {
	case FF_EROFS_LZ4HC: return 9;
	case FF_EROFS_LZMA: return 6;
	case FF_EROFS_DEFLATE: return 6;
	case FF_EROFS_ZSTD: return 3;
	default: return 0;
	}
}

unsigned ew_codec_alg(enum ff_erofs_codec kind)
{
	switch (kind) {
	case FF_EROFS_LZMA: return ER_ALG_LZMA;
	case FF_EROFS_DEFLATE: return ER_ALG_DEFLATE;
	case FF_EROFS_ZSTD: return ER_ALG_ZSTD;
	default: return ER_ALG_LZ4;
	}
}

static int setup(struct ew_codec *c, uint32_t cap)
{
	switch (c->kind) {
	case FF_EROFS_LZ4HC:
		return (c->lz4hc_state = malloc((size_t)LZ4_sizeofStateHC())) ? 0 : -1;
	case FF_EROFS_DEFLATE:
		c->dfl = libdeflate_alloc_compressor(c->level);
		break;
	case FF_EROFS_ZSTD:
		if (!(c->zc = ZSTD_createCCtx()))
			return -1;
		ZSTD_CCtx_setParameter(c->zc, ZSTD_c_compressionLevel, c->level);
		ZSTD_CCtx_setParameter(c->zc, ZSTD_c_windowLog, (int)ew_codec_log2(c->dict));
		break;
	default:
		return 0;
	}
	if (c->kind == FF_EROFS_DEFLATE && !c->dfl)
		return -1;
	/* room for the whole of the largest input: an attempt always learns
	 * its stream's size */
	c->tmp_cap = c->kind == FF_EROFS_DEFLATE
			     ? libdeflate_deflate_compress_bound(c->dfl, c->dict)
			     : ZSTD_compressBound(c->dict);
	(void)cap;
	return (c->tmp = malloc(c->tmp_cap)) ? 0 : -1;
}

unsigned ew_codec_log2(uint32_t v)
{
	unsigned b = 0;

	while ((1u << b) < v)
		b++;
	return b;
}

struct ew_codec *ew_codec_new(enum ff_erofs_codec kind, int level, uint32_t dict, uint32_t cap,
			      struct ff_err *err)
{
	struct ew_codec *c = calloc(1, sizeof(*c));

	if (!c) {
		ff_err_set(err, ENOMEM, "codec: out of memory");
		return NULL;
	}
	c->kind = kind;
	c->level = level < 0 ? ew_codec_default_level(kind) : level;
	c->dict = dict;
	if (setup(c, cap)) {
		ew_codec_free(c);
		ff_err_set(err, ENOMEM, "codec: cannot set up (level %d)", level);
		return NULL;
	}
	return c;
}

void ew_codec_new_file(struct ew_codec *c)
{
	c->ratio = 0;
}

void ew_codec_free(struct ew_codec *c)
{
	if (!c)
		return;
	free(c->lz4hc_state);
	if (c->lz_ready)
		lzma_end(&c->lz);
	if (c->dfl)
		libdeflate_free_compressor(c->dfl);
	ZSTD_freeCCtx(c->zc);
	free(c->tmp);
	free(c);
}

static long fit_lzma(struct ew_codec *c, const uint8_t *in, size_t *n, uint8_t *out, size_t cap)
{
	lzma_options_lzma opt;
	uint32_t preset = (uint32_t)(c->level % 100) | (c->level >= 100 ? LZMA_PRESET_EXTREME : 0);

	if (lzma_lzma_preset(&opt, preset))
		return -1;
	opt.dict_size = c->dict;
	if (!c->lz_ready) {
		c->lz = (lzma_stream)LZMA_STREAM_INIT;
		c->lz_ready = 1;
	}
	if (lzma_microlzma_encoder(&c->lz, &opt) != LZMA_OK)
		return -1;
	c->lz.next_in = in;
	c->lz.avail_in = *n;
	c->lz.next_out = out;
	c->lz.avail_out = cap;
	if (lzma_code(&c->lz, LZMA_FINISH) != LZMA_STREAM_END)
		return 0;
	*n = (size_t)c->lz.total_in;
	return (long)c->lz.total_out;
}

/* One attempt at the whole of n bytes into tmp (which holds the bound
 * of the largest input): the stream's full size, 0 on a codec failure. */
static size_t attempt(struct ew_codec *c, const uint8_t *in, size_t n)
{
	size_t r;

	if (c->kind == FF_EROFS_DEFLATE)
		return libdeflate_deflate_compress(c->dfl, in, n, c->tmp, c->tmp_cap);
	r = ZSTD_compress2(c->zc, c->tmp, c->tmp_cap, in, n);
	return ZSTD_isError(r) ? 0 : r;
}

/* The first length to try: the input per output byte of the file's last
 * extent (reset per file, so the guess does not depend on which worker
 * had which file before), else 4 * cap; all of it when that is close. */
static size_t first_guess(const struct ew_codec *c, size_t n, size_t cap)
{
	uint64_t g = c->ratio ? (uint64_t)cap * c->ratio / 256 : 4 * (uint64_t)cap;

	g -= g / 128; /* a little short: growing is cheaper than a miss */
	return g + n / 16 < n ? (g ? (size_t)g : 1) : n;
}

/* One attempt's length and stream size. */
struct fit_pt {
	size_t p, s;
};

/* The next length inside (lo, hi): where the line through the last two
 * attempts reaches the target (through the origin when they tie), the
 * whole input when that is past it and no attempt failed yet, else the
 * midpoint; the midpoint too after a step that kept more than 3/4 of
 * the bracket (a secant can crawl along a flat run). */
static size_t next_guess(struct fit_pt a, struct fit_pt b, size_t lo, size_t hi, size_t n,
			 size_t target, int crawl)
{
	int64_t p;

	if (crawl)
		return lo + (hi - lo) / 2;
	if (a.p && a.s != b.s)
		p = (int64_t)b.p + ((int64_t)target - (int64_t)b.s) *
					   ((int64_t)b.p - (int64_t)a.p) /
					   ((int64_t)b.s - (int64_t)a.s);
	else
		p = (int64_t)((uint64_t)b.p * target / b.s);
	if (p >= (int64_t)hi && hi == n + 1)
		return n;
	if (p <= (int64_t)lo || p >= (int64_t)hi)
		return lo + (hi - lo) / 2;
	return (size_t)p;
}

/* A prefix whose stream fills cap to within cap / 512 (or the whole input,
 * or one that cannot be lengthened by more than 64 bytes), found in a few
 * attempts: each gives the stream's full size, so the next length comes
 * from the sizes seen (secant) instead of halving a bracket.  Deflate and
 * zstd streams grow nearly in step with their input, so two or three
 * attempts usually do.  Input that does not shrink at all gives 0. */
static long fit_search(struct ew_codec *c, const uint8_t *in, size_t *n, uint8_t *out,
		       size_t cap)
{
	size_t lo = 0, s_lo = 0, hi = *n + 1, target = cap - cap / 1024, width;
	struct fit_pt prev = { 0, 0 }, cur = { first_guess(c, *n, cap), 0 };
	struct fit_pt last;
	int crawl;

	for (int tries = 0; tries < 16; tries++) {
		if (!(cur.s = attempt(c, in, cur.p)))
			return -1;
		width = hi <= *n ? hi - lo : 0; /* 0: no bracket yet */
		if (cur.s <= cap) {
			lo = cur.p;
			s_lo = cur.s;
			memcpy(out, c->tmp, cur.s);
			if (cur.p == *n || cap - cur.s <= cap / 512)
				break;
		} else if (cur.s >= cur.p) {
			*n = cur.p; /* noise: the span that did not shrink */
			return 0;
		} else {
			hi = cur.p;
		}
		if (hi - lo <= 64)
			break;
		crawl = width && 4 * (hi - lo) > 3 * width;
		last = cur;
		cur.p = next_guess(prev, last, lo, hi, *n, target, crawl);
		prev = last;
	}
	*n = lo;
	if (!lo)
		return 0;
	c->ratio = (uint32_t)((uint64_t)lo * 256 / s_lo);
	return (long)s_lo;
}

long ew_codec_fit(struct ew_codec *c, const uint8_t *in, size_t *n, uint8_t *out, size_t cap)
{
	int src = *n > INT32_MAX ? INT32_MAX : (int)*n;
	long r;

	switch (c->kind) {
	case FF_EROFS_LZ4:
		r = LZ4_compress_destSize((const char *)in, (char *)out, &src, (int)cap);
		*n = (size_t)src;
		break;
	case FF_EROFS_LZ4HC:
		r = LZ4_compress_HC_destSize(c->lz4hc_state, (const char *)in, (char *)out, &src,
					     (int)cap, c->level);
		*n = (size_t)src;
		break;
	case FF_EROFS_LZMA: r = fit_lzma(c, in, n, out, cap); break;
	default: r = fit_search(c, in, n, out, cap); break;
	}
	if (r > 0 && out[0] == 0)
		return 0;
	return r;
}
