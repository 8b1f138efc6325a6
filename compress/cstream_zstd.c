/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The zstd frame format through ZSTD_compressStream2 (with the content
 * checksum, as zstd(1) writes) and ZSTD_decompressStream (concatenated
 * frames allowed, as zstd -d). */
#include "compress/cstream.h"

#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

static const uint8_t zs_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };

struct zs_priv {
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
	size_t hint; /* reader: 0 when the last frame is complete */
	int done;
};

static int zs_writer_init(struct ff_cstream *s, int level, struct ff_err *err)
{
	struct zs_priv *z = calloc(1, sizeof(*z));

	if (!z)
		return ff_err_set(err, ENOMEM, "zstd stream: out of memory");
	s->priv = z;
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx)
		return ff_err_set(err, ENOMEM, "zstd stream: out of memory");
	if (level < 0)
		level = ZSTD_CLEVEL_DEFAULT;
	if (level > ZSTD_maxCLevel())
		level = ZSTD_maxCLevel();
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_checksumFlag, 1)))
		return ff_err_set(err, EINVAL, "zstd stream: level %d refused", level);
	return 0;
}

static int zs_reader_init(struct ff_cstream *s, struct ff_err *err)
{
	struct zs_priv *z = calloc(1, sizeof(*z));

	if (!z)
		return ff_err_set(err, ENOMEM, "zstd stream: out of memory");
	s->priv = z;
	z->dctx = ZSTD_createDCtx();
	if (!z->dctx)
		return ff_err_set(err, ENOMEM, "zstd stream: out of memory");
	z->hint = 1;
	return 0;
}

static int zs_write(struct ff_cstream *s, const uint8_t *buf, size_t len, int finish,
		    struct ff_err *err)
{
	struct zs_priv *z = s->priv;
	ZSTD_inBuffer in = { buf, len, 0 };
	size_t rem;

	do {
		ZSTD_outBuffer out = { s->out, FF_CS_BUF, 0 };

		rem = ZSTD_compressStream2(z->cctx, &out, &in, finish ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(rem))
			return ff_err_set(err, EIO, "zstd stream: compression failed: %s",
					  ZSTD_getErrorName(rem));
		if (ff_cs_put(s, s->out, out.pos, err))
			return -1;
	} while (finish ? rem != 0 : in.pos < in.size);
	return 0;
}

static ssize_t zs_read(struct ff_cstream *s, uint8_t *buf, size_t len, struct ff_err *err)
{
	struct zs_priv *z = s->priv;
	ZSTD_outBuffer out = { buf, len, 0 };
	size_t ret;

	while (!z->done && out.pos == 0) {
		ZSTD_inBuffer in;

		if (s->in_pos == s->in_len && ff_cs_fill(s, err) < 0)
			return -1;
		in = (ZSTD_inBuffer){ s->in + s->in_pos, s->in_len - s->in_pos, 0 };
		ret = ZSTD_decompressStream(z->dctx, &out, &in);
		s->in_pos += in.pos;
		if (ZSTD_isError(ret))
			return ff_err_set(err, EIO, "zstd stream: %s", ZSTD_getErrorName(ret));
		/* No progress at end of file: finished if the last frame was. */
		if (!out.pos && !in.pos && s->in_eof && s->in_pos == s->in_len) {
			if (z->hint)
				return ff_err_set(err, EIO, "zstd stream: truncated frame");
			z->done = 1;
		} else {
			z->hint = ret;
		}
	}
	return (ssize_t)out.pos;
}

static void zs_free(struct ff_cstream *s)
{
	struct zs_priv *z = s->priv;

	ZSTD_freeCCtx(z->cctx);
	ZSTD_freeDCtx(z->dctx);
	free(z);
}

const struct ff_cstream_ops ff_cs_zstd = {
	.name = "zstd",
	.magic = zs_magic,
	.magic_len = sizeof(zs_magic),
	.writer_init = zs_writer_init,
	.reader_init = zs_reader_init,
	.write = zs_write,
	.read = zs_read,
	.free = zs_free,
};
