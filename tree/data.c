/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Reading a regular file's content for a builder: from the host file named
 * at scan time (opened on demand), from the caller's memory, or from the
 * tree's spool. */
#include "tree/tree_priv.h"

#include "common/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

struct ff_data {
	struct ff_fs *img; /* content read from an existing image */
	uint64_t handle;
	int fd;            /* a host file's, ours to close; else -1 */
	struct ff_spool *spool; /* content read from the tree's spool */
	uint64_t base;     /* the spool offset */
	uint64_t size;
	const uint8_t *mem; /* caller's bytes instead of fd */
	char path[4096];   /* for messages */
};

struct ff_data *ff_tree_open_data(const struct ff_tree *tree, const struct ff_node *n,
				  struct ff_err *err)
{
	struct ff_data *d;

	if (ff_node_link(n))
		n = ff_node_link(n);
	/* not calloc: zeroing the 4 KiB path buffer for each of a million
	 * small files shows in a profile */
	d = malloc(sizeof(*d));
	if (!d) {
		ff_err_set(err, ENOMEM, "%s: out of memory", ff_node_name(n));
		return NULL;
	}
	d->img = NULL;
	d->handle = 0;
	d->fd = -1;
	d->spool = NULL;
	d->base = 0;
	d->mem = NULL;
	d->path[0] = '\0';
	d->size = n->size;
	if (n->src_kind == FF_SRC_HOST) {
		/* d->path is for messages (it may cut a long src_path short) */
		const char *p = ff_node_host_path(n, d->path, sizeof(d->path));

		if (p && p != d->path)
			snprintf(d->path, sizeof(d->path), "%s", p);
		d->fd = p ? open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
		if (d->fd < 0) {
			if (!p)
				snprintf(d->path, sizeof(d->path), "%s", ff_node_name(n));
			ff_err_sys(err, p ? errno : ENAMETOOLONG, "%s: cannot open", d->path);
			free(d);
			return NULL;
		}
		return d;
	}
	if (ff_node_path(n, d->path, sizeof(d->path)) < 0)
		snprintf(d->path, sizeof(d->path), "%s", ff_node_name(n));
	if (n->src_kind == FF_SRC_IMG) {
		d->img = tree->img;
		d->handle = n->img_handle;
		return d;
	}
	if (n->src_kind == FF_SRC_MEM) {
		d->mem = n->mem;
		return d;
	}
	d->spool = tree->spool;
	d->base = n->spool_off;
	if (!d->spool && n->size) {
		ff_err_set(err, EINVAL, "%s: no content source", d->path);
		free(d);
		return NULL;
	}
	return d;
}

/* One pread, or, for a host file when it reaches the scanned size, a
 * preadv that asks for one byte more: getting it means the file grew
 * since the scan, and an image holding only the scanned prefix of a file
 * still being written would be silently wrong.  That byte used to be an
 * fstat after the last read, one system call per read pass per file
 * (two passes for most small files: the duplicate check and the data). */
static ssize_t host_pread(const struct ff_data *d, char *buf, size_t len, uint64_t off,
			  int *grew)
{
	char extra;
	struct iovec v[2] = { { buf, len }, { &extra, 1 } };
	int at_end = off + len == d->size;
	ssize_t r = preadv(d->fd, v, at_end ? 2 : 1, (off_t)off);

	if (r > (ssize_t)len) {
		*grew = 1;
		r = (ssize_t)len;
	}
	return r;
}

static ssize_t image_pread(struct ff_data *d, void *buf, size_t want, uint64_t off,
			   struct ff_err *err)
{
	size_t got = 0;

	while (got < want) {
		ssize_t r = d->img->ops->read(d->img, d->handle, (char *)buf + got, want - got,
					      off + got);

		if (r < 0)
			return ff_err_sys(err, (int)-r, "%s: reading it from the image", d->path);
		if (r == 0)
			return ff_err_set(err, EIO, "%s: short in the image (%llu of %llu bytes)",
					  d->path, (unsigned long long)(off + got),
					  (unsigned long long)d->size);
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* The spool is ours: a region ending early is a fault of ours, not a
 * file that changed. */
static ssize_t spool_pread(struct ff_data *d, void *buf, size_t want, uint64_t off,
			   struct ff_err *err)
{
	size_t got = 0;

	while (got < want) {
		ssize_t r = ff_spool_read(d->spool, (char *)buf + got, want - got,
					  d->base + off + got, err);

		if (r < 0)
			return ff_err_prefix(err, "%s", d->path);
		if (r == 0)
			return ff_err_set(err, EIO, "%s: the spool file ends at %llu of its %llu bytes",
					  d->path, (unsigned long long)(off + got),
					  (unsigned long long)d->size);
		got += (size_t)r;
	}
	return (ssize_t)got;
}

ssize_t ff_data_pread(struct ff_data *d, void *buf, size_t len, uint64_t off,
		      struct ff_err *err)
{
	size_t want, got = 0;
	int grew = 0;

	if (off >= d->size)
		return 0;
	want = d->size - off < len ? (size_t)(d->size - off) : len;
	if (d->mem) {
		memcpy(buf, d->mem + off, want);
		return (ssize_t)want;
	}
	if (d->img)
		return image_pread(d, buf, want, off, err);
	if (d->spool)
		return spool_pread(d, buf, want, off, err);
	while (got < want) {
		ssize_t r = host_pread(d, (char *)buf + got, want - got, off + got, &grew);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ff_err_sys(err, errno, "%s: read error at offset %llu", d->path,
					  (unsigned long long)(off + got));
		if (r == 0)
			return ff_err_set(err, EIO,
					  "%s: file shrank while being read (expected %llu bytes, got %llu)",
					  d->path, (unsigned long long)d->size,
					  (unsigned long long)(off + got));
		got += (size_t)r;
	}
	if (grew)
		return ff_err_set(err, EIO,
				  "%s: file grew while being read (scanned %llu bytes, now longer)",
				  d->path, (unsigned long long)d->size);
	return (ssize_t)got;
}

void ff_data_close(struct ff_data *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	free(d);
}
