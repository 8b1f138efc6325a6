/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Block decompression.  Before 4.0 the superblock names no compressor:
 * squashfs-tools wrote zlib streams, and firmware builders patched in
 * LZMA in three ways met in the field, which each block's first bytes
 * tell apart:
 *   - a zlib stream (header byte 0x?8 whose 16-bit word divides by 31);
 *   - an LZMA-alone stream: the properties byte (lc, lp, pb), a 32-bit
 *     dictionary size and a 64-bit uncompressed size, or without the size
 *     (the byte after the dictionary is then the range coder's first byte,
 *     always 0);
 *   - a raw LZMA stream with no header at all, starting with that 0 byte,
 *     whose lc/lp/pb the writer fixed (3/0/2 by default, other values in
 *     some vendors' "adaptive" builds): found once at open by trying each.
 * Every LZMA form is decoded by liblzma's raw decoder with a dictionary of
 * the block's size at most, which any encoder's dictionary covers for a
 * block that small, so a hostile header cannot ask for gigabytes. */
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "common/endian.h"
#include "squashfs_legacy/legacy.h"

#define LZMA_ALONE_HEADER 13
#define LZMA_PROPS_HEADER 5

void lsq_codec_init(struct lsq_codec *c, uint32_t block_size)
{
	memset(c, 0, sizeof(*c));
	c->lc = 3;
	c->lp = 0;
	c->pb = 2;
	c->dict = block_size > LSQ_META_SIZE ? block_size : LSQ_META_SIZE;
}

static int is_zlib(const uint8_t *s, size_t n)
{
	return n >= 2 && (s[0] & 0x0f) == 8 && (s[0] >> 4) <= 7 && ((s[0] << 8) | s[1]) % 31 == 0;
}

int lsq_codec_sniff(const uint8_t *src, size_t n, struct ff_err *err)
{
	if (is_zlib(src, n))
		return LSQ_CODEC_GZIP;
	if (n >= 1 && src[0] == 0)
		return LSQ_CODEC_LZMA_RAW;
	if (n > LZMA_PROPS_HEADER && src[0] < 9 * 5 * 5)
		return LSQ_CODEC_LZMA_ALONE;
	return ff_err_set(err, EIO,
			  "compressed block of %zu bytes starts %02x %02x %02x %02x: not a zlib, "
			  "LZMA-alone or raw LZMA stream (another vendor's compression)",
			  n, n > 0 ? src[0] : 0, n > 1 ? src[1] : 0, n > 2 ? src[2] : 0,
			  n > 3 ? src[3] : 0);
}

static ssize_t inflate_block(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     struct ff_err *err)
{
	uLongf out = (uLongf)cap;
	uLong in = (uLong)n;
	int rc = uncompress2(dst, &out, src, &in);

	if (rc != Z_OK)
		return ff_err_set(err, EIO, "zlib: %s (block of %zu bytes)",
				  rc == Z_BUF_ERROR ? "truncated data or output past the block"
						    : rc == Z_MEM_ERROR ? "out of memory" : "corrupt data",
				  n);
	return (ssize_t)out;
}

/* Runs a raw LZMA1 decoder; want 0 = size unknown. */
static ssize_t lzma_raw(int lc, int lp, int pb, uint32_t dict, const uint8_t *src, size_t n,
			uint8_t *dst, size_t cap, uint64_t want, struct ff_err *err)
{
	lzma_options_lzma o = {.dict_size = dict, .lc = (uint32_t)lc, .lp = (uint32_t)lp,
			       .pb = (uint32_t)pb};
	lzma_filter f[2] = {{LZMA_FILTER_LZMA1, &o}, {LZMA_VLI_UNKNOWN, NULL}};
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret ret;
	size_t got;

	if (lc + lp > 4)
		return ff_err_set(err, EIO, "LZMA stream with lc=%d lp=%d pb=%d: liblzma decodes "
				  "only lc + lp <= 4 (a vendor variant)", lc, lp, pb);
	if (want && want < cap)
		cap = (size_t)want;
	if (lzma_raw_decoder(&s, f) != LZMA_OK)
		return ff_err_set(err, ENOMEM, "lzma: cannot start a decoder (lc=%d lp=%d pb=%d)",
				  lc, lp, pb);
	s.next_in = src;
	s.avail_in = n;
	s.next_out = dst;
	s.avail_out = cap;
	do
		ret = lzma_code(&s, LZMA_RUN);
	while (ret == LZMA_OK && s.avail_in && s.avail_out);
	got = cap - s.avail_out;
	lzma_end(&s);
	/* Streams without an end marker stop where the input ends, or where
	 * the size the header gave is reached. */
	if (ret == LZMA_STREAM_END || (ret == LZMA_OK && (!s.avail_in || (want && got == want))))
		return (ssize_t)got;
	if (ret == LZMA_OK)
		return ff_err_set(err, EIO, "lzma: data expands past %zu bytes", cap);
	return ff_err_set(err, EIO, "lzma: corrupt data (lc=%d lp=%d pb=%d, block of %zu bytes)",
			  lc, lp, pb, n);
}

static ssize_t lzma_alone(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			  struct ff_err *err)
{
	unsigned p = src[0];
	uint32_t dict = ff_get_le32(src + 1);
	uint64_t size = n >= LZMA_ALONE_HEADER ? ff_get_le64(src + LZMA_PROPS_HEADER) : 0;
	size_t skip = LZMA_ALONE_HEADER;

	/* No size field: the range coder's first byte, 0, follows the
	 * dictionary, where a size would be small and non-zero first. */
	if (n < LZMA_ALONE_HEADER + 1 || (size > cap && size != UINT64_MAX)) {
		if (src[LZMA_PROPS_HEADER] != 0)
			return ff_err_set(err, EIO, "LZMA-alone header: uncompressed size %llu past "
					  "the block (%zu bytes)", (unsigned long long)size, cap);
		skip = LZMA_PROPS_HEADER;
		size = 0;
	} else if (size == UINT64_MAX) {
		size = 0;
	}
	if (dict > cap || dict == 0)
		dict = (uint32_t)(cap > 4096 ? cap : 4096);
	return lzma_raw((int)(p % 9), (int)(p / 9 % 5), (int)(p / 45), dict, src + skip,
			n - skip, dst, cap, size, err);
}

ssize_t lsq_decompress(const struct lsq_codec *c, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t cap, struct ff_err *err)
{
	switch (lsq_codec_sniff(src, n, err)) {
	case LSQ_CODEC_GZIP: return inflate_block(src, n, dst, cap, err);
	case LSQ_CODEC_LZMA_ALONE: return lzma_alone(src, n, dst, cap, err);
	case LSQ_CODEC_LZMA_RAW:
		return lzma_raw(c->lc, c->lp, c->pb, c->dict, src, n, dst, cap, 0, err);
	default: return -1;
	}
}

static int raw_fits(const struct lsq_codec *c, int lc, int lp, int pb, const uint8_t *src,
		    size_t n, uint8_t *dst, size_t cap, size_t want)
{
	ssize_t got = lzma_raw(lc, lp, pb, c->dict, src, n, dst, cap, 0, NULL);

	return got > 0 && (want ? (size_t)got == want : 1);
}

int lsq_codec_detect(struct lsq_codec *c, const uint8_t *src, size_t n, size_t cap, size_t want,
		     struct ff_err *err)
{
	uint8_t out[LSQ_META_SIZE];
	int kind = lsq_codec_sniff(src, n, err);

	if (kind < 0)
		return -1;
	c->seen |= 1 << kind;
	if (kind != LSQ_CODEC_LZMA_RAW || cap > sizeof(out))
		return 0;
	if (raw_fits(c, c->lc, c->lp, c->pb, src, n, out, cap, want))
		return 0;
	for (int lc = 0; lc <= 4; lc++)
		for (int lp = 0; lc + lp <= 4; lp++)
			for (int pb = 0; pb <= 4; pb++)
				if (raw_fits(c, lc, lp, pb, src, n, out, cap, want)) {
					c->lc = lc;
					c->lp = lp;
					c->pb = pb;
					return 0;
				}
	return ff_err_set(err, EIO,
			  "raw LZMA (no header) metadata block of %zu bytes: no lc/lp/pb with "
			  "lc + lp <= 4 decodes it (a vendor LZMA variant this reader cannot read)",
			  n);
}

void lsq_codec_describe(const struct lsq_codec *c, char *buf, size_t cap)
{
	size_t at = 0;

	buf[0] = 0;
	if (c->seen & 1 << LSQ_CODEC_GZIP)
		at += (size_t)snprintf(buf + at, cap - at, "gzip");
	if (at < cap && c->seen & 1 << LSQ_CODEC_LZMA_ALONE)
		at += (size_t)snprintf(buf + at, cap - at, "%slzma", at ? "+" : "");
	if (at < cap && c->seen & 1 << LSQ_CODEC_LZMA_RAW)
		snprintf(buf + at, cap - at, "%slzma-raw lc=%d lp=%d pb=%d", at ? "+" : "", c->lc,
			 c->lp, c->pb);
	if (!buf[0])
		snprintf(buf, cap, "none (nothing compressed)");
}
