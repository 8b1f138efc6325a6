/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The spool's reading side (spool.h).  A builder reads a tar stream's
 * members in the order they were spooled, most of them a few hundred
 * bytes: one read of 128 KiB serves a few hundred of them, where each
 * used to be a system call of its own.  Larger reads go straight to the
 * file, outside the lock, so builders reading on several threads do not
 * queue behind each other. */
#include "tree/spool_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* pread until len bytes or the end of the file. */
static ssize_t read_direct(int fd, void *buf, size_t len, uint64_t off, struct ff_err *err)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ff_err_sys(err, errno, "spool file: read error at offset %llu",
					  (unsigned long long)(off + got));
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int covers(const struct ff_spool_win *w, uint64_t off, size_t len)
{
	return w->buf && off >= w->off && off + len <= w->off + w->len;
}

/* The window to fill for a read at off: the one the read runs on from
 * (a pass moving forward), else the least recently used. */
static struct ff_spool_win *pick(struct ff_spool *sp, uint64_t off)
{
	struct ff_spool_win *lru = &sp->win[0];

	for (int i = 0; i < FF_SPOOL_WINDOWS; i++) {
		struct ff_spool_win *w = &sp->win[i];

		if (w->buf && off >= w->off && off - w->off <= w->len + FF_SPOOL_WIN)
			return w;
		if (w->used < lru->used)
			lru = w;
	}
	return lru;
}

static ssize_t read_windowed(struct ff_spool *sp, void *buf, size_t len, uint64_t off,
			     struct ff_err *err)
{
	struct ff_spool_win *w = NULL;
	ssize_t r;
	size_t n;

	for (int i = 0; i < FF_SPOOL_WINDOWS && !w; i++)
		if (covers(&sp->win[i], off, len))
			w = &sp->win[i];
	if (!w) {
		w = pick(sp, off);
		if (!w->buf && !(w->buf = malloc(FF_SPOOL_WIN)))
			return read_direct(sp->fd, buf, len, off, err);
		w->len = 0;
		r = read_direct(sp->fd, w->buf, FF_SPOOL_WIN, off, err);
		if (r < 0)
			return -1;
		w->off = off;
		w->len = (size_t)r;
	}
	/* short only where the file ends */
	n = off - w->off >= w->len ? 0 : w->len - (size_t)(off - w->off);
	n = n < len ? n : len;
	memcpy(buf, w->buf + (off - w->off), n);
	w->used = ++sp->clock;
	return (ssize_t)n;
}

ssize_t ff_spool_read(struct ff_spool *sp, void *buf, size_t len, uint64_t off,
		      struct ff_err *err)
{
	ssize_t r;

	pthread_mutex_lock(&sp->lock);
	/* a tree is finished (and its spool flushed) before builders read
	 * it; a reader of an unfinished one still gets what was written */
	if (sp->wlen && ff_spool_flush(sp, err)) {
		pthread_mutex_unlock(&sp->lock);
		return -1;
	}
	if (len > FF_SPOOL_WIN / 4) {
		pthread_mutex_unlock(&sp->lock);
		return read_direct(sp->fd, buf, len, off, err);
	}
	r = read_windowed(sp, buf, len, off, err);
	pthread_mutex_unlock(&sp->lock);
	return r;
}
