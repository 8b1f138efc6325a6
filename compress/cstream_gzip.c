/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The gzip file format (RFC 1952) through zlib; the reader follows
 * concatenated members as gzip -d does. */
#include "compress/cstream.h"

#include <errno.h>
#include <stdlib.h>
#include <zlib.h>

static const uint8_t gz_magic[] = { 0x1f, 0x8b };

/* windowBits 15 + 16 selects the gzip wrapper in zlib. */
#define GZ_WBITS (15 + 16)

struct gz_priv {
	z_stream z;
	int done; /* reader: last member ended at end of file */
};

static int gz_writer_init(struct ff_cstream *s, int level, struct ff_err *err)
{
	struct gz_priv *g = calloc(1, sizeof(*g));

	if (!g)
		return ff_err_set(err, ENOMEM, "gzip stream: out of memory");
	if (level > 9)
		level = 9;
	if (deflateInit2(&g->z, level < 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, GZ_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return ff_err_set(err, ENOMEM, "gzip stream: deflateInit2 failed");
	}
	s->priv = g;
	return 0;
}

static int gz_reader_init(struct ff_cstream *s, struct ff_err *err)
{
	struct gz_priv *g = calloc(1, sizeof(*g));

	if (!g)
		return ff_err_set(err, ENOMEM, "gzip stream: out of memory");
	if (inflateInit2(&g->z, GZ_WBITS) != Z_OK) {
		free(g);
		return ff_err_set(err, ENOMEM, "gzip stream: inflateInit2 failed");
	}
	s->priv = g;
	return 0;
}

static int gz_write(struct ff_cstream *s, const uint8_t *buf, size_t len, int finish,
		    struct ff_err *err)
{
	z_stream *z = &((struct gz_priv *)s->priv)->z;
	int ret;

	z->next_in = (Bytef *)buf;
	z->avail_in = (uInt)len;
	do {
		z->next_out = s->out;
		z->avail_out = FF_CS_BUF;
		ret = deflate(z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (ret == Z_STREAM_ERROR)
			return ff_err_set(err, EIO, "gzip stream: deflate failed");
		if (ff_cs_put(s, s->out, FF_CS_BUF - z->avail_out, err))
			return -1;
	} while (z->avail_in || z->avail_out == 0 || (finish && ret != Z_STREAM_END));
	return 0;
}

/* At the end of a member: another may follow (gzip -d concatenates them). */
static int gz_next_member(struct ff_cstream *s, z_stream *z, struct ff_err *err)
{
	ssize_t have = ff_cs_fill(s, err);

	if (have <= 0)
		return (int)have; /* 0: clean end of file */
	if (inflateReset(z) != Z_OK)
		return ff_err_set(err, EIO, "gzip stream: cannot reset the decoder");
	return 1;
}

static ssize_t gz_read(struct ff_cstream *s, uint8_t *buf, size_t len, struct ff_err *err)
{
	struct gz_priv *g = s->priv;
	z_stream *z = &g->z;
	uInt want = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
	int ret;

	z->next_out = buf;
	z->avail_out = want;
	while (!g->done && z->avail_out == want) {
		if (s->in_pos == s->in_len) {
			ssize_t have = ff_cs_fill(s, err);

			if (have < 0)
				return -1;
			if (have == 0)
				return ff_err_set(err, EIO, "gzip stream: truncated (%lu bytes out)",
						  (unsigned long)z->total_out);
		}
		z->next_in = s->in + s->in_pos;
		z->avail_in = (uInt)(s->in_len - s->in_pos);
		ret = inflate(z, Z_NO_FLUSH);
		s->in_pos = s->in_len - z->avail_in;
		if (ret == Z_STREAM_END) {
			int more = gz_next_member(s, z, err);

			if (more < 0)
				return -1;
			g->done = !more;
		} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
			return ff_err_set(err, EIO, "gzip stream: corrupt data (%s)",
					  z->msg ? z->msg : "bad stream");
		}
	}
	return (ssize_t)(want - z->avail_out);
}

static void gz_free(struct ff_cstream *s)
{
	struct gz_priv *g = s->priv;
	z_stream *z = &g->z;

	if (s->writer)
		deflateEnd(z);
	else
		inflateEnd(z);
	free(g);
}

const struct ff_cstream_ops ff_cs_gzip = {
	.name = "gzip",
	.magic = gz_magic,
	.magic_len = sizeof(gz_magic),
	.writer_init = gz_writer_init,
	.reader_init = gz_reader_init,
	.write = gz_write,
	.read = gz_read,
	.free = gz_free,
};
