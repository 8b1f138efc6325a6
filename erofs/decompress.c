/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One pcluster's bytes to its extent's bytes, through the Debian codec
 * libraries: LZ4 (liblz4), MicroLZMA (liblzma), raw deflate (zlib) and
 * Zstandard (libzstd); stored pclusters are copied, rotated inside their
 * block when interlaced.
 *
 * Compressed data may be preceded by zero bytes (the LZ4_0PADDING layout
 * puts the stream at the pcluster's end, and the other codecs always do),
 * so leading zeros are skipped: no stream of these codecs starts with
 * one.  A partial extent (a deduplicated one referencing the start of a
 * longer pcluster) is decoded until its length and no further. */
#include <lz4.h>
#include <lzma.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "erofs/reader.h"

static size_t zero_margin(const uint8_t *in, size_t n)
{
	size_t m = 0;

	while (m < n && !in[m])
		m++;
	return m;
}

static int dec_lz4(const uint8_t *in, size_t n, uint8_t *out, size_t llen, struct ff_err *err)
{
	int got;

	if (n > (size_t)LZ4_MAX_INPUT_SIZE || llen > (size_t)INT32_MAX)
		return ER_BAD(err, "lz4: %zu bytes to %zu", n, llen);
	/* partial: a stream without 0-padding may be followed by junk */
	got = LZ4_decompress_safe_partial((const char *)in, (char *)out, (int)n, (int)llen,
					  (int)llen);
	if (got != (int)llen)
		return ER_BAD(err, "lz4: %zu bytes decoded to %d, not %zu", n, got, llen);
	return 0;
}

static int dec_lzma(const struct er_rd *rd, const uint8_t *in, size_t n, uint8_t *out, size_t llen,
		int partial, struct ff_err *err)
{
	lzma_stream s = LZMA_STREAM_INIT;
	uint32_t dict = rd->sb.lzma_dict ? rd->sb.lzma_dict : ER_LZMA_MAX_DICT;
	lzma_ret r;

	/* No match reaches further back than the extent is long. */
	if (dict > llen)
		dict = llen < 4096 ? 4096 : (uint32_t)llen;
	r = lzma_microlzma_decoder(&s, n, llen, !partial, dict);
	if (r != LZMA_OK)
		return ER_BAD(err, "lzma: decoder setup failed (%d)", (int)r);
	s.next_in = in;
	s.avail_in = n;
	s.next_out = out;
	s.avail_out = llen;
	r = lzma_code(&s, LZMA_FINISH);
	lzma_end(&s);
	if ((r != LZMA_STREAM_END && r != LZMA_OK) || s.total_out != llen)
		return ER_BAD(err, "lzma: %zu bytes decoded to %llu, not %zu (code %d)", n,
			      (unsigned long long)s.total_out, llen, (int)r);
	return 0;
}

static int dec_deflate(const uint8_t *in, size_t n, uint8_t *out, size_t llen, int partial,
		   struct ff_err *err)
{
	z_stream s;
	int r;

	memset(&s, 0, sizeof(s));
	if (n > UINT32_MAX || llen > UINT32_MAX || inflateInit2(&s, -15) != Z_OK)
		return ER_BAD(err, "deflate: decoder setup failed");
	s.next_in = (Bytef *)(uintptr_t)in;
	s.avail_in = (uInt)n;
	s.next_out = out;
	s.avail_out = (uInt)llen;
	r = inflate(&s, partial ? Z_SYNC_FLUSH : Z_FINISH);
	inflateEnd(&s);
	if (s.total_out != llen || (r != Z_STREAM_END && !(partial && r == Z_OK)))
		return ER_BAD(err, "deflate: %zu bytes decoded to %lu, not %zu (code %d)", n,
			      s.total_out, llen, r);
	return 0;
}

static int dec_zstd(const uint8_t *in, size_t n, uint8_t *out, size_t llen, struct ff_err *err)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { in, n, 0 };
	ZSTD_outBuffer ob = { out, llen, 0 };
	size_t r;

	if (!d)
		return ff_err_set(err, ENOMEM, "zstd: out of memory"), -ENOMEM;
	/* Windows up to the largest pcluster only: bounded memory. */
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 24);
	r = ZSTD_decompressStream(d, &ob, &ib);
	ZSTD_freeDCtx(d);
	if (ZSTD_isError(r) || ob.pos != llen)
		return ER_BAD(err, "zstd: %zu bytes decoded to %zu, not %zu (%s)", n, ob.pos, llen,
			      ZSTD_isError(r) ? ZSTD_getErrorName(r) : "short");
	return 0;
}

/* A stored pcluster of one block whose bytes start at the extent's
 * offset inside the block and wrap round. */
static int interlaced(const struct er_rd *rd, const uint8_t *in, size_t plen, uint8_t *out,
		      size_t llen, uint64_t la, struct ff_err *err)
{
	size_t skip = (size_t)(la & (rd->sb.blksz - 1)), right;

	if (plen > rd->sb.blksz || llen > plen || plen < rd->sb.blksz)
		return ER_BAD(err, "interlaced pcluster of %zu bytes for %zu (block %u)", plen,
			      llen, rd->sb.blksz);
	right = rd->sb.blksz - skip < llen ? rd->sb.blksz - skip : llen;
	memcpy(out, in + skip, right);
	memcpy(out + right, in, llen - right);
	return 0;
}

int er_decompress(const struct er_rd *rd, unsigned alg, const uint8_t *in, size_t plen,
		  uint8_t *out, size_t llen, int partial, uint64_t la, struct ff_err *err)
{
	size_t m;

	if (alg == ER_ALG_SHIFTED) {
		if (llen > plen)
			return ER_BAD(err, "stored pcluster of %zu bytes for %zu", plen, llen);
		memcpy(out, in, llen);
		return 0;
	}
	if (alg == ER_ALG_INTERLACED)
		return interlaced(rd, in, plen, out, llen, la, err);
	m = zero_margin(in, plen);
	if (m >= plen)
		return ER_BAD(err, "%s pcluster of %zu bytes is all zeros", er_alg_name(alg), plen);
	switch (alg) {
	case ER_ALG_LZ4: return dec_lz4(in + m, plen - m, out, llen, err);
	case ER_ALG_LZMA: return dec_lzma(rd, in + m, plen - m, out, llen, partial, err);
	case ER_ALG_DEFLATE: return dec_deflate(in + m, plen - m, out, llen, partial, err);
	case ER_ALG_ZSTD: return dec_zstd(in + m, plen - m, out, llen, err);
	default: return ER_UNSUP(err, "compression algorithm %u not supported", alg);
	}
}
