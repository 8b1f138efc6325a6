/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Internal: the stream containers behind ff_cstream (compress.h).  cstream.c
 * owns the object, the fd I/O buffers and detection; each container file
 * (cstream_gzip.c, cstream_xz.c, cstream_zstd.c, cstream_lzop.c) supplies one
 * struct ff_cstream_ops. */
#ifndef FF_COMPRESS_CSTREAM_H
#define FF_COMPRESS_CSTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

#define FF_CS_BUF (64u * 1024)

struct ff_cstream;

struct ff_cstream_ops {
	const char *name;
	const uint8_t *magic;
	size_t magic_len;
	int (*writer_init)(struct ff_cstream *s, int level, struct ff_err *err);
	int (*reader_init)(struct ff_cstream *s, struct ff_err *err);
	/* Compress len bytes; finish=1 (with len 0) writes the trailer. */
	int (*write)(struct ff_cstream *s, const uint8_t *buf, size_t len, int finish,
		     struct ff_err *err);
	/* Up to len decompressed bytes, 0 at the end of the data. */
	ssize_t (*read)(struct ff_cstream *s, uint8_t *buf, size_t len, struct ff_err *err);
	void (*free)(struct ff_cstream *s);
};

struct ff_cstream {
	const struct ff_cstream_ops *ops;
	int fd;
	int writer;
	int failed;
	void *priv;      /* the container's state */
	uint8_t *in;     /* reader: compressed bytes in[in_pos..in_len) */
	size_t in_pos, in_len;
	int in_eof;
	uint8_t *out;    /* writer: staging buffer of FF_CS_BUF bytes */
};

extern const struct ff_cstream_ops ff_cs_gzip;
extern const struct ff_cstream_ops ff_cs_xz;
extern const struct ff_cstream_ops ff_cs_zstd;
extern const struct ff_cstream_ops ff_cs_lzop;

/* Reader: make unread input available.  Returns the number of bytes now
 * buffered (0 only at end of file) or -1 with err. */
ssize_t ff_cs_fill(struct ff_cstream *s, struct ff_err *err);
/* Reader: take exactly len bytes (header fields, lzop blocks); a short file
 * is "truncated" naming what was being read. */
int ff_cs_take(struct ff_cstream *s, void *buf, size_t len, const char *what,
	       struct ff_err *err);
/* Writer: write len bytes to the fd (retrying short writes). */
int ff_cs_put(struct ff_cstream *s, const void *buf, size_t len, struct ff_err *err);

#endif
