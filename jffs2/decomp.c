/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One inode node's data, decompressed by its compr id (fs/jffs2/compr.c):
 * none and zero are handled here; zlib (libdeflate, then zlib), LZO and
 * LZMA by their libraries;
 * rtime and rubin by rtime.c and rubin.c.  Every decoder must produce
 * exactly dsize bytes, as the kernel requires. */
#include <errno.h>
#include <libdeflate.h>
#include <lzma.h>
#ifndef FF_NO_LZO
#include <lzo/lzo1x.h>
#endif
#include <string.h>
#include <zlib.h>

#include "common/endian.h"
#include "compress/compress.h"
#include "jffs2/decomp.h"
#include "jffs2/node.h"

const char *j2_compr_name(unsigned id)
{
	static const char *const names[J2_COMPR_COUNT] = {
		"none", "zero", "rtime", "rubinmips", "copy", "dynrubin", "zlib", "lzo", "lzma",
	};

	return id < J2_COMPR_COUNT ? names[id] : "unknown";
}

/* The usual node, raw deflate that ends where the node says, goes to
 * libdeflate, about twice as fast as inflate on whole buffers (the
 * SquashFS reader's choice too); 1 when it cannot say, and zlib, which
 * the kernel uses, decides (a stream without a final block, one longer
 * than dsize, a damaged one), so the verdict is always zlib's. */
static int fast_raw(const uint8_t *src, size_t n, uint8_t *out, size_t out_len)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	enum libdeflate_result r;

	if (!d)
		return 1;
	r = libdeflate_deflate_decompress(d, src, n, out, out_len, NULL);
	libdeflate_free_decompressor(d);
	return r == LIBDEFLATE_SUCCESS ? 0 : 1;
}

/* The kernel inflates a stream whose 2-byte zlib header names deflate
 * without a preset dictionary as raw deflate, skipping the header and
 * never checking the trailing Adler-32 (the node's data CRC covers the
 * bytes); anything else goes to inflate with the header. */
static int zlib_decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		       struct ff_err *err)
{
	z_stream z;
	int raw = n >= 2 && (src[0] & 0x0f) == Z_DEFLATED && (src[0] >> 4) + 8 <= 15 &&
		  ((src[0] << 8) | src[1]) % 31 == 0 && !(src[1] & 0x20);
	int ret;

	if (raw && fast_raw(src + 2, n - 2, out, out_len) == 0)
		return 0;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, raw ? -MAX_WBITS : MAX_WBITS) != Z_OK)
		return ff_err_set(err, ENOMEM, "zlib: cannot start inflate");
	z.next_in = (Bytef *)(uintptr_t)(src + (raw ? 2 : 0));
	z.avail_in = (uInt)(n - (raw ? 2 : 0));
	z.next_out = out;
	z.avail_out = (uInt)out_len;
	ret = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (ret != Z_STREAM_END && !(ret == Z_OK || ret == Z_BUF_ERROR))
		return ff_err_set(err, EIO, "zlib: %s", z.msg ? z.msg : "corrupt stream");
	if (z.total_out != out_len)
		return ff_err_set(err, EIO, "zlib: %lu bytes decoded, node says %zu",
				  (unsigned long)z.total_out, out_len);
	return 0;
}

static int lzo_decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		      struct ff_err *err)
{
#ifdef FF_NO_LZO
	(void)src, (void)n, (void)out, (void)out_len;
	return ff_comp_no_lzo(err, "JFFS2 lzo node");
#else
	lzo_uint got = out_len;
	int ret = lzo1x_decompress_safe(src, n, out, &got, NULL);

	if (ret != LZO_E_OK && !(ret == LZO_E_INPUT_NOT_CONSUMED && got == out_len))
		return ff_err_set(err, EIO, "lzo: corrupt stream (liblzo2 error %d)", ret);
	if (got != out_len)
		return ff_err_set(err, EIO, "lzo: %lu bytes decoded, node says %zu",
				  (unsigned long)got, out_len);
	return 0;
#endif
}

/* OpenWrt's JFFS2 LZMA: a bare LZMA1 stream with lc 0, lp 0, pb 0 and an
 * 8 KiB dictionary (compr_lzma.c's LZMA_BEST_*), no header.  liblzma reads
 * it through the .lzma header those settings and the known size make. */
static int lzma_decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		       struct ff_err *err)
{
	lzma_stream s = LZMA_STREAM_INIT;
	uint8_t head[13];
	lzma_ret ret;

	head[0] = 0; /* (pb * 5 + lp) * 9 + lc */
	ff_put_le32(head + 1, 0x2000);
	ff_put_le64(head + 5, out_len);
	if (lzma_alone_decoder(&s, 64u << 20) != LZMA_OK)
		return ff_err_set(err, ENOMEM, "lzma: cannot start the decoder");
	s.next_out = out;
	s.avail_out = out_len;
	s.next_in = head;
	s.avail_in = sizeof(head);
	ret = lzma_code(&s, LZMA_RUN);
	if (ret == LZMA_OK) {
		s.next_in = src;
		s.avail_in = n;
		ret = lzma_code(&s, LZMA_FINISH);
	}
	lzma_end(&s);
	if (ret != LZMA_STREAM_END && !(ret == LZMA_OK && s.avail_out == 0))
		return ff_err_set(err, EIO, "lzma: corrupt stream (liblzma error %d)", (int)ret);
	if (s.avail_out)
		return ff_err_set(err, EIO, "lzma: %zu bytes decoded, node says %zu",
				  out_len - s.avail_out, out_len);
	return 0;
}

int j2_decompress(unsigned id, const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		  struct ff_err *err)
{
	switch (id) {
	case J2_COMPR_NONE:
		if (n < out_len)
			return ff_err_set(err, EIO, "none: %zu bytes stored, node says %zu", n, out_len);
		if (out_len)
			memcpy(out, src, out_len);
		return 0;
	case J2_COMPR_ZERO:
		memset(out, 0, out_len);
		return 0;
	case J2_COMPR_RTIME:
		return j2_rtime_decode(src, n, out, out_len, err);
	/* The kernel's compressor table pairs these ids the other way round
	 * from their names: id 3 is the dynamic coder, id 5 the fixed one. */
	case J2_COMPR_RUBINMIPS:
		return j2_rubin_decode(1, src, n, out, out_len, err);
	case J2_COMPR_DYNRUBIN:
		return j2_rubin_decode(0, src, n, out, out_len, err);
	case J2_COMPR_ZLIB:
		return zlib_decode(src, n, out, out_len, err);
	case J2_COMPR_LZO:
		return lzo_decode(src, n, out, out_len, err);
	case J2_COMPR_LZMA:
		return lzma_decode(src, n, out, out_len, err);
	default:
		return ff_err_set(err, ENOTSUP, "compression id %u (%s) is not supported", id,
				  j2_compr_name(id));
	}
}
