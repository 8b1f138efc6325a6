/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The builder's only calls into the codec libraries (compress/raw.h will
 * take their place): a data block in the forms the kernel decompresses
 * (lzo1x, raw deflate with an 11-bit window as the kernel's crypto
 * deflate, zstd), with mkfs.ubifs' choices but for lzo's effort:
 * lzo1x-999 at level UW_LZO_LEVEL (mkfs.ubifs' lzo1x_999_compress is
 * level 8, whose 2048-long match chains took 92% of a build: level 7
 * walks 256 and compresses minbase's 4 KiB blocks 0.09% worse in half the
 * time, which the packing of write_pipe.c more than wins back), zlib's
 * default level, zstd's level 3; favor_lzo keeps zlib only when it is the given
 * percentage smaller; a block under 128 bytes, or one no codec shrinks,
 * is stored as it is.  One state per worker. */
#include <errno.h>
#ifndef FF_NO_LZO
#include <lzo/lzo1x.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "compress/compress.h"
#include "ubifs/write_priv.h"

#define UW_LZO_LEVEL 7

struct uw_cz {
	int compr, favor;
	uint32_t percent;
	void *lzo_mem;
	ZSTD_CCtx *zstd;
	uint8_t tmp[UBIFS_BLOCK_SIZE * 2];
};

struct uw_cz *uw_cz_new(const struct ff_ubifs_write_opts *o, struct ff_err *err)
{
	struct uw_cz *z = calloc(1, sizeof(*z));

	if (!z)
		goto oom;
	z->compr = o->compr;
	z->favor = o->favor_lzo;
	z->percent = o->favor_percent;
	if (o->compr == UBIFS_COMPR_LZO || o->favor_lzo) {
#ifdef FF_NO_LZO
		uw_cz_free(z);
		ff_comp_no_lzo(err, "UBIFS compressor lzo");
		return NULL;
#else
		if (lzo_init() != LZO_E_OK)
			goto oom;
		z->lzo_mem = malloc(LZO1X_999_MEM_COMPRESS);
		if (!z->lzo_mem)
			goto oom;
#endif
	}
	if (o->compr == UBIFS_COMPR_ZSTD && !(z->zstd = ZSTD_createCCtx()))
		goto oom;
	return z;
oom:
	uw_cz_free(z);
	ff_err_set(err, ENOMEM, "out of memory for the compressor's state");
	return NULL;
}

void uw_cz_free(struct uw_cz *z)
{
	if (!z)
		return;
	free(z->lzo_mem);
	ZSTD_freeCCtx(z->zstd);
	free(z);
}

/* 0 when it did not fit or failed. */
static uint32_t run_lzo(struct uw_cz *z, const uint8_t *in, uint32_t n, uint8_t *out)
{
#ifdef FF_NO_LZO
	(void)z, (void)in, (void)n, (void)out;
	return 0;
#else
	lzo_uint len = sizeof(z->tmp);

	if (lzo1x_999_compress_level(in, n, z->tmp, &len, z->lzo_mem, NULL, 0, 0,
				     UW_LZO_LEVEL) != LZO_E_OK || len >= n)
		return 0;
	memcpy(out, z->tmp, len);
	return (uint32_t)len;
#endif
}

static uint32_t run_zlib(const uint8_t *in, uint32_t n, uint8_t *out)
{
	z_stream s;
	uint32_t len = 0;

	memset(&s, 0, sizeof(s));
	if (deflateInit2(&s, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -11, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	s.next_in = (Bytef *)(uintptr_t)in;
	s.avail_in = n;
	s.next_out = out;
	s.avail_out = n - 1;
	if (deflate(&s, Z_FINISH) == Z_STREAM_END)
		len = (uint32_t)s.total_out;
	deflateEnd(&s);
	return len;
}

static uint32_t run_zstd(struct uw_cz *z, const uint8_t *in, uint32_t n, uint8_t *out)
{
	size_t r = ZSTD_compressCCtx(z->zstd, out, n - 1, in, n, 3);

	return ZSTD_isError(r) ? 0 : (uint32_t)r;
}

static uint32_t favor(struct uw_cz *z, const uint8_t *in, uint32_t n, uint8_t *out,
		      uint32_t *compr)
{
	uint8_t zbuf[UBIFS_BLOCK_SIZE];
	uint32_t l = run_lzo(z, in, n, out), zl = run_zlib(in, n, zbuf);

	*compr = UBIFS_COMPR_LZO;
	if (zl && (!l || (uint64_t)zl * 100 <= (uint64_t)l * (100 - z->percent))) {
		memcpy(out, zbuf, zl);
		*compr = UBIFS_COMPR_ZLIB;
		return zl;
	}
	return l;
}

uint32_t uw_compress(struct uw_cz *z, const uint8_t *in, uint32_t n, uint8_t *out,
		     uint32_t *compr)
{
	uint32_t len = 0;

	*compr = (uint32_t)z->compr;
	if (n >= UW_MIN_COMPR_LEN) {
		if (z->favor)
			len = favor(z, in, n, out, compr);
		else if (z->compr == UBIFS_COMPR_LZO)
			len = run_lzo(z, in, n, out);
		else if (z->compr == UBIFS_COMPR_ZLIB)
			len = run_zlib(in, n, out);
		else if (z->compr == UBIFS_COMPR_ZSTD)
			len = run_zstd(z, in, n, out);
	}
	if (!len || len >= n) {
		*compr = UBIFS_COMPR_NONE;
		memcpy(out, in, n);
		return n;
	}
	return len;
}
