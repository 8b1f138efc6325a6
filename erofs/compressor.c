/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Every codec call of the EROFS writer, in one place.  EROFS wants each
 * physical cluster filled: "compress as much of this input as fits in
 * CAP bytes".  liblz4 (LZ4_compress_destSize, LZ4_compress_HC_destSize)
 * and liblzma's MicroLZMA encoder do that themselves; for deflate
 * (libdeflate) and zstd (libzstd) the longest prefix that fits is found
 * by bisection, deterministic as each attempt is.  A stream starting with
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
	uint8_t *tmp;              /* bisection's attempts */
	size_t tmp_cap;
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
	c->tmp_cap = cap;
	return (c->tmp = malloc(cap)) ? 0 : -1;
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

/* One attempt at the whole of n bytes into tmp: its size, or 0. */
static size_t attempt(struct ew_codec *c, const uint8_t *in, size_t n, size_t cap)
{
	size_t r;

	if (c->kind == FF_EROFS_DEFLATE)
		return libdeflate_deflate_compress(c->dfl, in, n, c->tmp, cap);
	r = ZSTD_compress2(c->zc, c->tmp, cap, in, n);
	return ZSTD_isError(r) ? 0 : r;
}

/* The longest prefix (to within 1/256 of the bracket, and 64 bytes)
 * whose stream fits in cap: doubling from 4 * cap while it fits (zeros
 * compress a thousandfold), then bisection. */
static long fit_search(struct ew_codec *c, const uint8_t *in, size_t *n, uint8_t *out,
		       size_t cap)
{
	size_t lo = 0, hi = *n, best = 0, got, step;
	size_t probe = 4 * cap < *n ? 4 * cap : *n;

	if (cap > c->tmp_cap)
		return -1;
	while ((got = attempt(c, in, probe, cap)) > 0) {
		lo = probe;
		best = got;
		memcpy(out, c->tmp, got);
		if (probe == *n)
			return (long)got;
		probe = 2 * probe < *n ? 2 * probe : *n;
	}
	hi = probe;
	step = (hi - lo) / 256 > 64 ? (hi - lo) / 256 : 64;
	while (hi - lo > step) {
		size_t mid = lo + (hi - lo) / 2, r = attempt(c, in, mid, cap);

		if (r > 0) {
			lo = mid;
			best = r;
			memcpy(out, c->tmp, r);
		} else {
			hi = mid;
		}
	}
	*n = lo;
	return (long)best;
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
