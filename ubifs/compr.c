/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The data node codecs, each a library call: LZO1X (liblzo2), zlib's raw
 * deflate stream (no zlib header: the kernel's crypto deflate uses window
 * bits -15) and zstd.  Safe from any thread: the only state is the
 * fs's spare zstd contexts, under its lock.  Built with
 * `make LZO=0` an LZO node does not decode; the callers name the build
 * (ubifs_lzo_missing). */
#ifndef FF_NO_LZO
#include <lzo/lzo1x.h>
#endif
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "compress/compress.h"
#include "ubifs/ubifs.h"

const char *ubifs_compr_name(unsigned type)
{
	static const char *const names[UBIFS_COMPR_TYPES] = { "none", "lzo", "zlib", "zstd" };

	return type < UBIFS_COMPR_TYPES ? names[type] : "unknown";
}

static ssize_t inflate_raw(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	z_stream z;
	int ret;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, -15) != Z_OK)
		return -1;
	z.next_in = (Bytef *)(uintptr_t)src;
	z.avail_in = (uInt)n;
	z.next_out = dst;
	z.avail_out = (uInt)cap;
	ret = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (ret != Z_STREAM_END)
		return -1;
	return (ssize_t)(cap - z.avail_out);
}

int ubifs_lzo_missing(unsigned type, char *why, size_t cap)
{
	struct ff_err e;

	if (type != UBIFS_COMPR_LZO || ff_comp_has_lzo())
		return 0;
	ff_comp_no_lzo(&e, "lzo data node");
	snprintf(why, cap, "%s", e.msg);
	return 1;
}

#ifdef FF_NO_LZO
static ssize_t lzo_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	(void)src, (void)n, (void)dst, (void)cap;
	return -1;
}
#else
static ssize_t lzo_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	lzo_uint out = cap;

	if (lzo1x_decompress_safe(src, n, dst, &out, NULL) != LZO_E_OK)
		return -1;
	return (ssize_t)out;
}
#endif

/* zstd contexts are kept for reuse: making one (about 160 KiB, zeroed)
 * for each read of a file cost 1% of an extract.  As many are kept as
 * threads read at once, up to UBIFS_DCTX_KEPT. */
void *ubifs_zstd_dctx_get(struct ubifs_fs *u)
{
	void *d = NULL;

	pthread_mutex_lock(&u->lock);
	if (u->n_dctx)
		d = u->dctx[--u->n_dctx];
	pthread_mutex_unlock(&u->lock);
	return d ? d : ZSTD_createDCtx();
}

void ubifs_zstd_dctx_put(struct ubifs_fs *u, void *dctx)
{
	if (!dctx)
		return;
	pthread_mutex_lock(&u->lock);
	if (u->n_dctx < UBIFS_DCTX_KEPT) {
		u->dctx[u->n_dctx++] = dctx;
		dctx = NULL;
	}
	pthread_mutex_unlock(&u->lock);
	ZSTD_freeDCtx(dctx);
}

void ubifs_zstd_dctx_clear(struct ubifs_fs *u)
{
	while (u->n_dctx)
		ZSTD_freeDCtx(u->dctx[--u->n_dctx]);
}

ssize_t ubifs_decompress(int type, const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	return ubifs_decompress_ctx(type, src, n, dst, cap, NULL);
}

ssize_t ubifs_decompress_ctx(int type, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			     void *zstd_dctx)
{
	size_t got;

	switch (type) {
	case UBIFS_COMPR_NONE:
		if (n > cap)
			return -1;
		memcpy(dst, src, n);
		return (ssize_t)n;
	case UBIFS_COMPR_LZO:
		return lzo_decode(src, n, dst, cap);
	case UBIFS_COMPR_ZLIB:
		return inflate_raw(src, n, dst, cap);
	case UBIFS_COMPR_ZSTD:
		got = zstd_dctx ? ZSTD_decompressDCtx(zstd_dctx, dst, cap, src, n)
				: ZSTD_decompress(dst, cap, src, n);
		return ZSTD_isError(got) ? -1 : (ssize_t)got;
	}
	return -1;
}
