/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Whole-file stream containers (.gz .xz .zst .lzo): the object, buffered fd
 * I/O and detection by magic.  The containers themselves are in
 * cstream_<name>.c. */
#include "compress/compress.h"
#include "compress/cstream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct ff_cstream_ops *const containers[] = { &ff_cs_gzip, &ff_cs_xz, &ff_cs_zstd,
							   &ff_cs_lzop };
#define NCONT (sizeof(containers) / sizeof(containers[0]))
#define MAGIC_MAX 16

static const struct ff_cstream_ops *by_name(const char *name)
{
	for (size_t i = 0; i < NCONT; i++)
		if (!strcasecmp(containers[i]->name, name))
			return containers[i];
	/* The container for the "lzo" codec is lzop's file format. */
	if (!strcasecmp(name, "lzo"))
		return &ff_cs_lzop;
	if (!strcasecmp(name, "zst"))
		return &ff_cs_zstd;
	return NULL;
}

static const struct ff_cstream_ops *by_magic(const uint8_t *magic, size_t len)
{
	for (size_t i = 0; i < NCONT; i++)
		if (len >= containers[i]->magic_len &&
		    !memcmp(magic, containers[i]->magic, containers[i]->magic_len))
			return containers[i];
	return NULL;
}

const char *ff_cstream_detect(const uint8_t *magic, size_t len)
{
	const struct ff_cstream_ops *ops = by_magic(magic, len);

	return ops ? ops->name : NULL;
}

static void cs_free(struct ff_cstream *s)
{
	if (!s)
		return;
	if (s->ops && s->priv)
		s->ops->free(s);
	free(s->in);
	free(s->out);
	free(s);
}

static struct ff_cstream *cs_alloc(int fd, int writer, struct ff_err *err)
{
	struct ff_cstream *s = calloc(1, sizeof(*s));

	if (s) {
		s->fd = fd;
		s->writer = writer;
		if (writer)
			s->out = malloc(FF_CS_BUF);
		else
			s->in = malloc(FF_CS_BUF);
	}
	if (!s || !(writer ? (void *)s->out : (void *)s->in)) {
		cs_free(s);
		ff_err_set(err, ENOMEM, "stream: out of memory");
		return NULL;
	}
	return s;
}

struct ff_cstream *ff_cstream_new_writer(int fd, const char *name, int level,
					 struct ff_err *err)
{
	const struct ff_cstream_ops *ops = name ? by_name(name) : NULL;
	struct ff_cstream *s;

	if (!ops) {
		ff_err_set(err, EINVAL, "unknown stream compressor '%s' (known: gzip lzo xz zstd)",
			   name ? name : "(null)");
		return NULL;
	}
	s = cs_alloc(fd, 1, err);
	if (!s)
		return NULL;
	s->ops = ops;
	if (ops->writer_init(s, level, err)) {
		cs_free(s);
		return NULL;
	}
	return s;
}

/* Read until `want` bytes are buffered or the file ends. */
static int fill_to(struct ff_cstream *s, size_t want, struct ff_err *err)
{
	while (s->in_len - s->in_pos < want && !s->in_eof)
		if (ff_cs_fill(s, err) < 0)
			return -1;
	return 0;
}

/* Unknown magic: hand the fd back where it was so the caller can read the
 * file raw; a pipe cannot be rewound, which is an error. */
static struct ff_cstream *not_compressed(struct ff_cstream *s, struct ff_err *err)
{
	off_t consumed = (off_t)s->in_len;
	int fd = s->fd;

	cs_free(s);
	ff_err_clear(err);
	if (consumed && lseek(fd, -consumed, SEEK_CUR) < 0)
		ff_err_set(err, ESPIPE, "stream: not a known compressed format, and the "
			   "input cannot be rewound to read it uncompressed");
	return NULL;
}

struct ff_cstream *ff_cstream_new_reader(int fd, struct ff_err *err)
{
	struct ff_cstream *s = cs_alloc(fd, 0, err);

	if (!s)
		return NULL;
	if (fill_to(s, MAGIC_MAX, err)) {
		cs_free(s);
		return NULL;
	}
	s->ops = by_magic(s->in, s->in_len);
	if (!s->ops)
		return not_compressed(s, err);
	if (s->ops->reader_init(s, err)) {
		cs_free(s);
		return NULL;
	}
	return s;
}

ssize_t ff_cs_fill(struct ff_cstream *s, struct ff_err *err)
{
	ssize_t got;

	if (s->in_pos) {
		memmove(s->in, s->in + s->in_pos, s->in_len - s->in_pos);
		s->in_len -= s->in_pos;
		s->in_pos = 0;
	}
	if (s->in_eof || s->in_len == FF_CS_BUF)
		return (ssize_t)s->in_len;
	do
		got = read(s->fd, s->in + s->in_len, FF_CS_BUF - s->in_len);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return ff_err_sys(err, errno, "%s stream: read failed", s->ops ? s->ops->name : "");
	if (got == 0)
		s->in_eof = 1;
	s->in_len += (size_t)got;
	return (ssize_t)(s->in_len - s->in_pos);
}

int ff_cs_take(struct ff_cstream *s, void *buf, size_t len, const char *what,
	       struct ff_err *err)
{
	uint8_t *p = buf;

	while (len) {
		size_t have = s->in_len - s->in_pos, n;

		if (!have) {
			ssize_t got = ff_cs_fill(s, err);

			if (got < 0)
				return -1;
			if (got == 0)
				return ff_err_set(err, EIO, "%s stream: truncated while reading %s",
						  s->ops->name, what);
			continue;
		}
		n = have < len ? have : len;
		memcpy(p, s->in + s->in_pos, n);
		s->in_pos += n;
		p += n;
		len -= n;
	}
	return 0;
}

int ff_cs_put(struct ff_cstream *s, const void *buf, size_t len, struct ff_err *err)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t got = write(s->fd, p, len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return ff_err_sys(err, errno, "%s stream: write failed", s->ops->name);
		p += got;
		len -= (size_t)got;
	}
	return 0;
}

ssize_t ff_cstream_write(struct ff_cstream *s, const void *buf, size_t len, struct ff_err *err)
{
	if (!s->writer || s->failed)
		return ff_err_set(err, EINVAL, "%s stream: %s", s->ops->name,
				  s->writer ? "an earlier write failed" : "opened for reading");
	if (len && s->ops->write(s, buf, len, 0, err)) {
		s->failed = 1;
		return -1;
	}
	return (ssize_t)len;
}

ssize_t ff_cstream_read(struct ff_cstream *s, void *buf, size_t len, struct ff_err *err)
{
	ssize_t got;

	if (s->writer || s->failed)
		return ff_err_set(err, EINVAL, "%s stream: %s", s->ops->name,
				  s->writer ? "opened for writing" : "an earlier read failed");
	if (!len)
		return 0;
	got = s->ops->read(s, buf, len, err);
	if (got < 0)
		s->failed = 1;
	return got;
}

int ff_cstream_close(struct ff_cstream *s, struct ff_err *err)
{
	int ret = 0;

	if (!s)
		return 0;
	if (s->writer && !s->failed)
		ret = s->ops->write(s, NULL, 0, 1, err);
	else if (s->writer)
		ret = ff_err_set(err, EIO, "%s stream: incomplete after an earlier error",
				 s->ops->name);
	cs_free(s);
	return ret;
}
