/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The archive as a byte stream: a file or stdin, raw or inside a gzip, xz or
 * zstd container (detected by magic, decoded by compress/). */
#include "tar/tar.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compress/compress.h"

static ssize_t raw_read(struct tar_stream *s, void *buf, size_t n, struct ff_err *err)
{
	for (;;) {
		ssize_t r = read(s->fd, buf, n);

		if (r >= 0)
			return r;
		if (errno != EINTR)
			return ff_err_sys(err, errno, "%s: read error", s->name);
	}
}

static ssize_t fill(struct tar_stream *s, struct ff_err *err)
{
	ssize_t r;

	if (s->cs) {
		r = ff_cstream_read(s->cs, s->buf, sizeof(s->buf), err);
		if (r < 0)
			ff_err_prefix(err, "%s", s->name);
	} else {
		r = raw_read(s, s->buf, sizeof(s->buf), err);
	}
	if (r >= 0) {
		s->have = (size_t)r;
		s->at = 0;
	}
	return r;
}

int tar_stream_read(struct tar_stream *s, void *dst, size_t n, int eof_ok, struct ff_err *err)
{
	uint8_t *d = dst;
	size_t done = 0;

	while (done < n) {
		size_t k;

		if (s->at == s->have) {
			ssize_t r = fill(s, err);

			if (r < 0)
				return -1;
			if (r == 0) {
				if (eof_ok && done == 0)
					return 1;
				return ff_err_set(err, EIO, "%s: unexpected end of archive at offset %llu",
						  s->name, (unsigned long long)(s->pos + done));
			}
		}
		k = s->have - s->at < n - done ? s->have - s->at : n - done;
		memcpy(d + done, s->buf + s->at, k);
		s->at += k;
		done += k;
	}
	s->pos += n;
	return 0;
}

int tar_stream_skip(struct tar_stream *s, uint64_t n, struct ff_err *err)
{
	uint8_t tmp[4096];

	while (n) {
		size_t k = n < sizeof(tmp) ? (size_t)n : sizeof(tmp);

		if (tar_stream_read(s, tmp, k, 0, err))
			return -1;
		n -= k;
	}
	return 0;
}

/* A pipe cannot be rewound for the decoder: copy what we peeked plus the
 * rest of the pipe into an unlinked temporary file and decode that. */
static int pipe_to_file(struct tar_stream *s, struct ff_err *err)
{
	const char *dir = getenv("TMPDIR");
	int fd = open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	ssize_t r = (ssize_t)s->have;

	if (fd < 0)
		return ff_err_sys(err, errno, "%s: cannot create a temporary file", s->name);
	for (;;) {
		if (r > 0 && write(fd, s->buf, (size_t)r) != r) {
			close(fd);
			return ff_err_sys(err, errno ? errno : ENOSPC, "%s: cannot copy to a temporary file",
					  s->name);
		}
		if (r <= 0)
			break;
		r = raw_read(s, s->buf, sizeof(s->buf), err);
	}
	if (r < 0) {
		close(fd);
		return -1;
	}
	if (s->own_fd)
		close(s->fd);
	s->fd = fd;
	s->own_fd = 1;
	return 0;
}

static int open_container(struct tar_stream *s, struct ff_err *err)
{
	const char *kind = ff_cstream_detect(s->buf, s->have);

	if (!kind)
		return 0; /* plain tar: the peeked bytes stay buffered */
	if (lseek(s->fd, 0, SEEK_SET) != 0 && pipe_to_file(s, err))
		return -1;
	if (lseek(s->fd, 0, SEEK_SET) != 0)
		return ff_err_sys(err, errno, "%s: cannot rewind", s->name);
	s->have = s->at = 0;
	ff_err_clear(err);
	s->cs = ff_cstream_new_reader(s->fd, err);
	if (!s->cs)
		return ff_err_prefix(err, "%s: %s container", s->name, kind);
	return 0;
}

int tar_stream_open(struct tar_stream *s, const char *path, struct ff_err *err)
{
	ssize_t r;

	memset(s, 0, sizeof(*s));
	s->name = path;
	if (!strcmp(path, "-")) {
		s->name = "(stdin)";
		s->fd = 0;
	} else {
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0)
			return ff_err_sys(err, errno, "%s: cannot open", path);
		s->own_fd = 1;
	}
	/* peek enough for any container magic; a pipe may return less */
	while (s->have < 16) {
		r = raw_read(s, s->buf + s->have, sizeof(s->buf) - s->have, err);
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		s->have += (size_t)r;
	}
	if (open_container(s, err) == 0)
		return 0;
fail:
	tar_stream_close(s);
	return -1;
}

void tar_stream_close(struct tar_stream *s)
{
	struct ff_err ignored;

	if (s->cs)
		ff_cstream_close(s->cs, &ignored);
	s->cs = NULL;
	if (s->own_fd && s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->own_fd = 0;
}
