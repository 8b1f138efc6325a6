/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "compress/lzma_run.h"
#include "compress/codec.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *ff_lzma_strerror(lzma_ret ret)
{
	switch (ret) {
	case LZMA_MEM_ERROR:
		return "out of memory";
	case LZMA_MEMLIMIT_ERROR:
		return "needs more memory than the limit";
	case LZMA_FORMAT_ERROR:
		return "not in the expected format";
	case LZMA_OPTIONS_ERROR:
		return "unsupported options";
	case LZMA_DATA_ERROR:
		return "corrupt data";
	case LZMA_BUF_ERROR:
		return "truncated data";
	case LZMA_UNSUPPORTED_CHECK:
		return "unsupported integrity check";
	case LZMA_PROG_ERROR:
		return "invalid arguments";
	default:
		return "unexpected liblzma error";
	}
}

/* One whole buffer through an encoder or decoder: runs until it ends,
 * fails, or stops making progress (LZMA_BUF_ERROR). */
static lzma_ret run_to_end(lzma_stream *strm, const uint8_t *src, size_t n, uint8_t *dst,
			   size_t cap)
{
	lzma_ret ret;

	strm->next_in = src;
	strm->avail_in = n;
	strm->next_out = dst;
	strm->avail_out = cap;
	do
		ret = lzma_code(strm, LZMA_FINISH);
	while (ret == LZMA_OK);
	return ret;
}

ssize_t ff_lzma_encode_run(lzma_stream *strm, const char *codec, const uint8_t *src, size_t n,
			   uint8_t *dst, size_t cap, struct ff_err *err)
{
	lzma_ret ret = run_to_end(strm, src, n, dst, cap);

	if (ret == LZMA_STREAM_END)
		return (ssize_t)(cap - strm->avail_out);
	if (ret == LZMA_OK || ret == LZMA_BUF_ERROR)
		return FF_CODEC_NOFIT;
	return ff_err_set(err, EIO, "%s: compression failed: %s", codec, ff_lzma_strerror(ret));
}

ssize_t ff_lzma_decode_run(lzma_stream *strm, const char *codec, const uint8_t *src, size_t n,
			   uint8_t *dst, size_t cap, struct ff_err *err)
{
	lzma_ret ret = run_to_end(strm, src, n, dst, cap);

	if (ret == LZMA_STREAM_END)
		return (ssize_t)(cap - strm->avail_out);
	if (ret == LZMA_OK || ret == LZMA_BUF_ERROR) {
		if (!strm->avail_out && strm->avail_in)
			return ff_err_set(err, EIO, "%s: data expands past %zu bytes", codec, cap);
		return ff_err_set(err, EIO, "%s: truncated data (%zu bytes in, %zu out)", codec, n,
				  cap - strm->avail_out);
	}
	return ff_err_set(err, EIO, "%s: %s (block of %zu bytes)", codec, ff_lzma_strerror(ret),
			  n);
}

void ff_lzma_bits_init(struct ff_lzma_bits *b)
{
	b->lc = b->lp = b->pb = -1;
}

int ff_lzma_bits_set(struct ff_lzma_bits *b, const char *codec, const char *key,
		     const char *value, struct ff_err *err)
{
	int *slot = !strcmp(key, "lc") ? &b->lc : !strcmp(key, "lp") ? &b->lp
		  : !strcmp(key, "pb") ? &b->pb : NULL;
	long v;

	if (!slot)
		return 1;
	if (ff_opt_int(codec, key, value, 0, 4, &v, err))
		return -1;
	*slot = (int)v;
	return 0;
}

int ff_lzma_bits_apply(const struct ff_lzma_bits *b, const char *codec, lzma_options_lzma *o,
		       struct ff_err *err)
{
	if (b->lc >= 0)
		o->lc = (uint32_t)b->lc;
	if (b->lp >= 0)
		o->lp = (uint32_t)b->lp;
	if (b->pb >= 0)
		o->pb = (uint32_t)b->pb;
	if (o->lc + o->lp > LZMA_LCLP_MAX)
		return ff_err_set(err, EINVAL, "%s: lc=%u plus lp=%u is more than %d", codec,
				  o->lc, o->lp, LZMA_LCLP_MAX);
	return 0;
}

void ff_lzma_bits_options(const struct ff_lzma_bits *b, ff_info_fn fn, void *ctx)
{
	if (b->lc >= 0)
		ff_info_int(fn, ctx, "lc", b->lc);
	if (b->lp >= 0)
		ff_info_int(fn, ctx, "lp", b->lp);
	if (b->pb >= 0)
		ff_info_int(fn, ctx, "pb", b->pb);
}
