/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A compressed stream (.gz, .lzo, .xz, .zst) as a container: it cannot be
 * read at random offsets, so unwrap decompresses it once into an unlinked
 * temporary file (the cache the byte source then reads).  Found only at
 * the start of what is opened, never by a scan of a blob: a gzip magic
 * is three bytes, which random data holds every few megabytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/format.h"
#include "compress/compress.h"

static int cs_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, struct ff_probe *res)
{
	const char *name = ff_cstream_detect(buf, len);

	(void)src;
	(void)off;
	(void)opts;
	if (!name)
		return 0;
	res->big_endian = -1;
	snprintf(res->detail, sizeof(res->detail), "%s stream", name);
	return res->confidence = FF_PROBE_VALID / 2;
}

static int copy_out(struct ff_cstream *s, int out, struct ff_err *err)
{
	static const size_t chunk = 1u << 20;
	uint8_t *buf = malloc(chunk);
	ssize_t n;

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	while ((n = ff_cstream_read(s, buf, chunk, err)) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ff_err_sys(err, errno, "writing the decompressed copy");
			n = -1;
			break;
		}
	free(buf);
	return n < 0 ? -1 : 0;
}

/* An unlinked temporary file in $TMPDIR (or /tmp). */
static int tmp_file(struct ff_err *err)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		ff_err_sys(err, errno, "temporary file in %s", dir);
	return fd;
}

/* The stream reader reads a descriptor from its position: a descriptor of
 * its own, so the source's is never moved. */
static int own_fd(struct ff_bsrc *src, struct ff_err *err)
{
	char path[64];
	int fd;

	if (src->fd < 0)
		return ff_err_set(err, ENOTSUP, "a compressed stream inside %s is not read",
				  src->name);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", src->fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || lseek(fd, (off_t)src->fd_off, SEEK_SET) < 0) {
		ff_err_sys(err, errno, "%s", src->name);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int cs_unwrap(struct ff_bsrc *src, const struct ff_open_opts *o, struct ff_unwrapped *out,
		     struct ff_err *err)
{
	int in = own_fd(src, err), tmp = -1;
	struct ff_cstream *s = NULL;
	char name[1024];

	(void)o;
	if (in < 0)
		return -1;
	if ((tmp = tmp_file(err)) < 0 || !(s = ff_cstream_new_reader(in, err)) ||
	    copy_out(s, tmp, err) < 0)
		goto fail;
	ff_cstream_close(s, NULL);
	close(in);
	snprintf(name, sizeof(name), "%s, decompressed", src->name);
	out->inner = ff_bsrc_from_fd(tmp, 1, name, err);
	if (!out->inner)
		close(tmp);
	return out->inner ? 0 : -1;
fail:
	ff_err_prefix(err, "%s", src->name);
	if (s)
		ff_cstream_close(s, NULL);
	if (tmp >= 0)
		close(tmp);
	close(in);
	return -1;
}

/* Flash holds the image, never its compressed stream: refused, as a
 * --raw write of the stream would fill the device with what no kernel
 * mounts. */
static int cs_flash_map(struct ff_bsrc *src, const struct ff_flash_layout *lay,
			const struct ff_flash_dev *dev, struct ff_pagemap *map, struct ff_err *err)
{
	(void)dev, (void)map;
	if (lay)
		return 0; /* no page layout of its own to build */
	return ff_err_set(err, EINVAL, "%s: a compressed stream; decompress it and flash the "
			  "image inside", src ? src->name : "image");
}

const struct ff_format ff_format_cstream = {
	.name = "compressed",
	.title = "compressed stream",
	.role = FF_ROLE_CONTAINER,
	.probe_len = 16,
	.probe = cs_probe,
	.unwrap = cs_unwrap,
	.flash_map = cs_flash_map,
};
