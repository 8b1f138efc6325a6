/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Small node reads (inodes, entries, index nodes: a few hundred bytes
 * each) through a handful of cached 64 KiB windows of LEBs.  A builder
 * writes a directory's entries, its files' inodes and the index one after
 * the other, so a listing or an extract finds most of them in a window
 * read already: one system call for many nodes instead of one each (an
 * extract of a Debian minbase image made 28,000 of them).  Entries and
 * index nodes take the aligned window around them; data nodes (small
 * files, the tail of a run) the window from their place on, since a
 * builder writes the next files' data after them (a run of data nodes
 * longer than a small read is taken from a window only when one holds it
 * whole).  Inodes lie among their files' data: they are read alone unless
 * a window holds them already (ubifs_leb_read_near).  Guarded by the fs's
 * lock; the least recently used window is replaced. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/ubifs.h"

#define WIN_SIZE (64u * 1024u)
#define WIN_COUNT 16u
#define WIN_SMALL 4096u /* reads up to this size go through a window */

struct ubifs_wcache {
	uint64_t clock;
	struct {
		uint32_t lnum, start, len;
		uint64_t used;  /* 0: empty */
		uint8_t *data;
	} w[WIN_COUNT];
};

void ubifs_wcache_free(struct ubifs_fs *u)
{
	if (!u->wc)
		return;
	for (unsigned i = 0; i < WIN_COUNT; i++)
		free(u->wc->w[i].data);
	free(u->wc);
	u->wc = NULL;
}

/* Copies [offs, offs + len) of LEB lnum from a window holding it; 0 when
 * none does.  Under the lock. */
static int hit(struct ubifs_wcache *c, uint32_t lnum, uint32_t offs, void *buf, size_t len)
{
	for (unsigned i = 0; i < WIN_COUNT; i++)
		if (c->w[i].used && c->w[i].lnum == lnum && offs >= c->w[i].start &&
		    offs + len <= (uint64_t)c->w[i].start + c->w[i].len) {
			c->w[i].used = ++c->clock;
			memcpy(buf, c->w[i].data + (offs - c->w[i].start), len);
			return 1;
		}
	return 0;
}

/* A window just read takes the least recently used one's place.  Under
 * the lock; takes data. */
static void install(struct ubifs_wcache *c, uint32_t lnum, uint32_t start, uint32_t len,
		    uint8_t *data)
{
	unsigned old = 0;

	for (unsigned i = 1; i < WIN_COUNT; i++)
		if (c->w[i].used < c->w[old].used)
			old = i;
	free(c->w[old].data);
	c->w[old].data = data;
	c->w[old].lnum = lnum;
	c->w[old].start = start;
	c->w[old].len = len;
	c->w[old].used = ++c->clock;
}

int ubifs_leb_read_near(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len)
{
	int found = 0;

	if (lnum >= u->sb.leb_cnt || offs > u->sb.leb_size || len > u->sb.leb_size - offs)
		return -EINVAL;
	if (len && len <= WIN_SMALL) {
		pthread_mutex_lock(&u->lock);
		found = u->wc && hit(u->wc, lnum, offs, buf, len);
		pthread_mutex_unlock(&u->lock);
	}
	return found ? 0 : ubifs_leb_read_raw(u, lnum, offs, buf, len);
}

/* Through a window starting at start (<= offs). */
static int read_from(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len,
		     uint32_t start)
{
	uint32_t wlen;
	uint8_t *data;
	int found;

	if (lnum >= u->sb.leb_cnt || offs > u->sb.leb_size || len > u->sb.leb_size - offs)
		return -EINVAL;
	if (!len || len > WIN_SIZE)
		return ubifs_leb_read_raw(u, lnum, offs, buf, len);
	pthread_mutex_lock(&u->lock);
	if (!u->wc)
		u->wc = calloc(1, sizeof(*u->wc));
	found = u->wc && hit(u->wc, lnum, offs, buf, len);
	pthread_mutex_unlock(&u->lock);
	/* a larger read (a run of data nodes) only takes a window's bytes */
	if (!found && (len > WIN_SMALL || offs + len > (uint64_t)start + WIN_SIZE))
		return ubifs_leb_read_raw(u, lnum, offs, buf, len);
	if (found)
		return 0;
	/* read without the lock; another thread may install the same window */
	wlen = u->sb.leb_size - start < WIN_SIZE ? u->sb.leb_size - start : WIN_SIZE;
	if (!(data = malloc(WIN_SIZE)) || ubifs_leb_read_raw(u, lnum, start, data, wlen) < 0) {
		free(data);
		return ubifs_leb_read_raw(u, lnum, offs, buf, len);
	}
	memcpy(buf, data + (offs - start), len);
	pthread_mutex_lock(&u->lock);
	if (u->wc)
		install(u->wc, lnum, start, wlen, data);
	else
		free(data);
	pthread_mutex_unlock(&u->lock);
	return 0;
}

int ubifs_leb_read(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len)
{
	return read_from(u, lnum, offs, buf, len, offs / WIN_SIZE * WIN_SIZE);
}

int ubifs_leb_read_ahead(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len)
{
	return read_from(u, lnum, offs, buf, len, offs);
}
