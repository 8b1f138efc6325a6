/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The byte sources every container and reader shares: file, window, memory. */
#include "common/bsrc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fd_size.h"

int ff_bsrc_init(struct ff_bsrc *s, const struct ff_bsrc_ops *ops, uint64_t size,
		 const char *name, struct ff_err *err)
{
	s->ops = ops;
	s->size = size;
	s->fd = -1;
	s->fd_off = 0;
	atomic_init(&s->refs, 1);
	s->name = strdup(name ? name : "(image)");
	return s->name ? 0 : ff_err_set(err, ENOMEM, "out of memory");
}

struct ff_bsrc *ff_bsrc_ref(struct ff_bsrc *s)
{
	if (s)
		atomic_fetch_add(&s->refs, 1);
	return s;
}

void ff_bsrc_unref(struct ff_bsrc *s)
{
	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	if (s->ops->destroy)
		s->ops->destroy(s);
	free(s->name);
	free(s);
}

int ff_bsrc_read(struct ff_bsrc *s, void *buf, size_t len, uint64_t off, struct ff_err *err)
{
	size_t done = 0;

	if (off > s->size || len > s->size - off)
		return ff_err_set(err, EIO, "%s: %zu bytes at offset %llu run past the end (%llu bytes)",
				  s->name, len, (unsigned long long)off,
				  (unsigned long long)s->size);
	while (done < len) {
		ssize_t n = ff_bsrc_pread(s, (uint8_t *)buf + done, len - done, off + done);

		if (n < 0)
			return ff_err_sys(err, (int)-n, "%s: reading %zu bytes at offset %llu",
					  s->name, len, (unsigned long long)off);
		if (n == 0)
			return ff_err_set(err, EIO, "%s: %zu bytes at offset %llu: end of data after %zu",
					  s->name, len, (unsigned long long)off, done);
		done += (size_t)n;
	}
	return 0;
}

void ff_bsrc_advise(struct ff_bsrc *s, uint64_t off, uint64_t len, int advice)
{
	if (s->fd >= 0)
		(void)posix_fadvise(s->fd, (off_t)(s->fd_off + off), (off_t)len, advice);
}

/* ---- a file ---- */

struct file_src {
	struct ff_bsrc base;
	int own;
};

static ssize_t file_pread(struct ff_bsrc *s, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	if (off >= s->size)
		return 0;
	if (len > s->size - off)
		len = (size_t)(s->size - off);
	do
		n = pread(s->fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static void file_destroy(struct ff_bsrc *s)
{
	if (((struct file_src *)s)->own)
		close(s->fd);
}

static const struct ff_bsrc_ops file_ops = { file_pread, file_destroy };

struct ff_bsrc *ff_bsrc_from_fd(int fd, int own, const char *name, struct ff_err *err)
{
	struct file_src *f = calloc(1, sizeof(*f));
	uint64_t size;
	int rc = ff_fd_size(fd, &size);

	if (rc < 0) {
		ff_err_sys(err, -rc, "%s", name);
		free(f);
		return NULL;
	}
	if (!f || ff_bsrc_init(&f->base, &file_ops, size, name, err) < 0) {
		if (!f)
			ff_err_set(err, ENOMEM, "out of memory");
		free(f);
		return NULL;
	}
	f->base.fd = fd;
	f->own = own;
	return &f->base;
}

struct ff_bsrc *ff_bsrc_open(const char *path, struct ff_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct ff_bsrc *s;

	if (fd < 0) {
		ff_err_sys(err, errno, "%s", path);
		return NULL;
	}
	s = ff_bsrc_from_fd(fd, 1, path, err);
	if (!s)
		close(fd);
	return s;
}

/* ---- a window of another source ---- */

struct window_src {
	struct ff_bsrc base;
	struct ff_bsrc *parent;
	uint64_t off;
};

static ssize_t window_pread(struct ff_bsrc *s, void *buf, size_t len, uint64_t off)
{
	struct window_src *w = (struct window_src *)s;

	if (off >= s->size)
		return 0;
	if (len > s->size - off)
		len = (size_t)(s->size - off);
	return ff_bsrc_pread(w->parent, buf, len, w->off + off);
}

static void window_destroy(struct ff_bsrc *s)
{
	ff_bsrc_unref(((struct window_src *)s)->parent);
}

static const struct ff_bsrc_ops window_ops = { window_pread, window_destroy };

struct ff_bsrc *ff_bsrc_window(struct ff_bsrc *parent, uint64_t off, uint64_t len,
			       struct ff_err *err)
{
	struct window_src *w;

	if (off > parent->size) {
		ff_err_set(err, EINVAL, "%s: offset %llu is past the end (%llu bytes)", parent->name,
			   (unsigned long long)off, (unsigned long long)parent->size);
		return NULL;
	}
	if (len > parent->size - off)
		len = parent->size - off;
	w = calloc(1, sizeof(*w));
	if (!w || ff_bsrc_init(&w->base, &window_ops, len, parent->name, err) < 0) {
		if (!w)
			ff_err_set(err, ENOMEM, "out of memory");
		free(w);
		return NULL;
	}
	w->parent = ff_bsrc_ref(parent);
	w->off = off;
	if (parent->fd >= 0) {
		w->base.fd = parent->fd;
		w->base.fd_off = parent->fd_off + off;
	}
	return &w->base;
}

/* ---- bytes in memory ---- */

struct mem_src {
	struct ff_bsrc base;
	const uint8_t *buf;
	void (*free_fn)(void *);
};

static ssize_t mem_pread(struct ff_bsrc *s, void *buf, size_t len, uint64_t off)
{
	struct mem_src *m = (struct mem_src *)s;

	if (off >= s->size)
		return 0;
	if (len > s->size - off)
		len = (size_t)(s->size - off);
	memcpy(buf, m->buf + off, len);
	return (ssize_t)len;
}

static void mem_destroy(struct ff_bsrc *s)
{
	struct mem_src *m = (struct mem_src *)s;

	if (m->free_fn)
		m->free_fn((void *)m->buf);
}

static const struct ff_bsrc_ops mem_ops = { mem_pread, mem_destroy };

struct ff_bsrc *ff_bsrc_mem(const void *buf, size_t len, void (*free_fn)(void *),
			    const char *name, struct ff_err *err)
{
	struct mem_src *m = calloc(1, sizeof(*m));

	if (!m || ff_bsrc_init(&m->base, &mem_ops, len, name, err) < 0) {
		if (!m)
			ff_err_set(err, ENOMEM, "out of memory");
		free(m);
		return NULL;
	}
	m->buf = buf;
	m->free_fn = free_fn;
	return &m->base;
}
