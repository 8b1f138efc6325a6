/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The .xz file format through liblzma's easy encoder (CRC64, as xz(1)
 * writes) and its auto decoder (concatenated streams allowed, as xz -d). */
#include "compress/cstream.h"
#include "compress/lzma_run.h"

#include <errno.h>
#include <stdlib.h>

static const uint8_t xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

struct xz_priv {
	lzma_stream strm;
	int done;
};

static int xz_alloc(struct ff_cstream *s, struct ff_err *err)
{
	struct xz_priv *x = calloc(1, sizeof(*x));

	if (!x)
		return ff_err_set(err, ENOMEM, "xz stream: out of memory");
	x->strm = (lzma_stream)LZMA_STREAM_INIT;
	s->priv = x;
	return 0;
}

static int xz_writer_init(struct ff_cstream *s, int level, struct ff_err *err)
{
	struct xz_priv *x;
	lzma_ret ret;

	if (xz_alloc(s, err))
		return -1;
	x = s->priv;
	ret = lzma_easy_encoder(&x->strm, level < 0 ? 6u : level > 9 ? 9u : (uint32_t)level,
				LZMA_CHECK_CRC64);
	if (ret != LZMA_OK)
		return ff_err_set(err, EIO, "xz stream: encoder setup failed: %s",
				  ff_lzma_strerror(ret));
	return 0;
}

static int xz_reader_init(struct ff_cstream *s, struct ff_err *err)
{
	struct xz_priv *x;
	lzma_ret ret;

	if (xz_alloc(s, err))
		return -1;
	x = s->priv;
	ret = lzma_auto_decoder(&x->strm, UINT64_MAX, LZMA_CONCATENATED);
	if (ret != LZMA_OK)
		return ff_err_set(err, EIO, "xz stream: decoder setup failed: %s",
				  ff_lzma_strerror(ret));
	return 0;
}

static int xz_write(struct ff_cstream *s, const uint8_t *buf, size_t len, int finish,
		    struct ff_err *err)
{
	lzma_stream *st = &((struct xz_priv *)s->priv)->strm;
	lzma_ret ret;

	st->next_in = buf;
	st->avail_in = len;
	do {
		st->next_out = s->out;
		st->avail_out = FF_CS_BUF;
		ret = lzma_code(st, finish ? LZMA_FINISH : LZMA_RUN);
		if (ret != LZMA_OK && ret != LZMA_STREAM_END)
			return ff_err_set(err, EIO, "xz stream: compression failed: %s",
					  ff_lzma_strerror(ret));
		if (ff_cs_put(s, s->out, FF_CS_BUF - st->avail_out, err))
			return -1;
	} while (st->avail_in || st->avail_out == 0 || (finish && ret != LZMA_STREAM_END));
	return 0;
}

static ssize_t xz_read(struct ff_cstream *s, uint8_t *buf, size_t len, struct ff_err *err)
{
	struct xz_priv *x = s->priv;
	lzma_stream *st = &x->strm;
	lzma_ret ret;

	st->next_out = buf;
	st->avail_out = len;
	while (!x->done && st->avail_out == len) {
		if (s->in_pos == s->in_len && ff_cs_fill(s, err) < 0)
			return -1;
		st->next_in = s->in + s->in_pos;
		st->avail_in = s->in_len - s->in_pos;
		/* LZMA_FINISH once the file has ended: the concatenated-stream
		 * decoder needs it to know no further stream follows. */
		ret = lzma_code(st, s->in_eof && !st->avail_in ? LZMA_FINISH : LZMA_RUN);
		s->in_pos = s->in_len - st->avail_in;
		if (ret == LZMA_STREAM_END)
			x->done = 1;
		else if (ret != LZMA_OK)
			return ff_err_set(err, EIO, "xz stream: %s (after %llu bytes out)",
					  ff_lzma_strerror(ret), (unsigned long long)st->total_out);
	}
	return (ssize_t)(len - st->avail_out);
}

static void xz_free(struct ff_cstream *s)
{
	struct xz_priv *x = s->priv;

	lzma_end(&x->strm);
	free(x);
}

const struct ff_cstream_ops ff_cs_xz = {
	.name = "xz",
	.magic = xz_magic,
	.magic_len = sizeof(xz_magic),
	.writer_init = xz_writer_init,
	.reader_init = xz_reader_init,
	.write = xz_write,
	.read = xz_read,
	.free = xz_free,
};
