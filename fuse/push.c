/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Push-ahead: which small files to store into the kernel's page cache
 * before a tree walk asks for them.
 *
 * Why: on a whole-tree read (tar, cp -a, rsync) every small file costs a
 * READ round trip: the walker's read() waits while the kernel hands the
 * request to our thread and our answer back, two context switches and two
 * system calls in the daemon, even when the data is already decoded.
 * Minbase's 5,330 files made 6,597 READs, most of the daemon's cost on a
 * zstd image where decompression is cheap.  FUSE_NOTIFY_STORE lets the
 * server put data into the page cache of an inode the kernel knows; a
 * walker then reads those pages without asking us at all.
 *
 * What to push: a walker reads a directory's files in the order of its
 * listing, which READDIRPLUS has just given out (with the sizes, and the
 * kernel then knows every inode in it).  So when the start of a listed
 * file is read, the next `window` files of the same listing that were
 * neither pushed nor read go to the store thread.  A walk that
 * reads in another order (a shuffled list, one file) gets its neighbours
 * pushed once and found later or never: the cost is the decoding of at
 * most `window` small files per read, done on the store thread.
 *
 * The files are stored by a thread of their own, not by the read pool's
 * workers: storing locks the file's pages in the kernel, and when the
 * walker has got to the file first its READ holds them until answered.
 * A worker of the read pool waiting there could be the one that READ is
 * queued for; this thread waits only for the read pool.
 *
 * The record is bounded: past MAX_ENTRIES it starts afresh, forgetting
 * older listings (a file missing from it is simply not pushed).  Only the
 * receiving thread calls in, but the mutex keeps that an assumption the
 * code does not depend on. */
#include "fuse/push.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "common/hmap.h"
#include "common/pool.h"
#include "common/vec.h"

#define MAX_ENTRIES (64u * 1024)
/* Entries looked at past the one read, so a read in another order costs a
 * bounded scan even in a directory of many files already pushed. */
#define SCAN_PER_FILE 4
/* Files waiting for the store thread; beyond that they are not pushed. */
#define QUEUE 256

struct entry {
	uint64_t handle;
	uint64_t dir;
	uint32_t size;
	uint32_t done; /* pushed, or read by the walker */
};

struct ff_push {
	pthread_mutex_t lock;
	unsigned window;
	uint32_t max_size;
	struct ff_vec entries; /* struct entry, in listing order */
	struct ff_hmap index;  /* handle -> position + 1 in entries */
	struct ff_pool *pool;  /* the store thread, once started */
	void (*store)(void *ctx, uint64_t handle, uint32_t size);
	void *ctx;
};

struct ff_push *ff_push_new(unsigned window, uint32_t max_size)
{
	struct ff_push *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	pthread_mutex_init(&p->lock, NULL);
	p->window = window ? window : 1;
	p->max_size = max_size;
	ff_vec_init(&p->entries, sizeof(struct entry));
	return p;
}

void ff_push_free(struct ff_push *p)
{
	if (!p)
		return;
	ff_pool_free(p->pool);
	ff_vec_free(&p->entries);
	ff_hmap_clear(&p->index, NULL);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

static void forget_all(struct ff_push *p)
{
	ff_vec_free(&p->entries);
	ff_hmap_clear(&p->index, NULL);
}

void ff_push_listed(struct ff_push *p, uint64_t dir, uint64_t handle, uint32_t mode,
		    uint64_t size)
{
	struct entry e = {handle, dir, (uint32_t)size, 0};

	if (!S_ISREG(mode) || size == 0 || size > p->max_size)
		return;
	pthread_mutex_lock(&p->lock);
	/* A listing read again (a second walk, `ls` before `tar`) keeps its
	 * files where they first were, pushed or not. */
	if (ff_hmap_find(&p->index, &handle, sizeof(handle), NULL))
		goto out;
	if (p->entries.len >= MAX_ENTRIES)
		forget_all(p);
	/* Out of memory: the file is not pushed, which is only slower. */
	if (ff_vec_push(&p->entries, &e) < 0)
		goto out;
	if (ff_hmap_set(&p->index, &handle, sizeof(handle), p->entries.len) < 0)
		p->entries.len--;
out:
	pthread_mutex_unlock(&p->lock);
}

size_t ff_push_after(struct ff_push *p, uint64_t handle, struct ff_push_file *out,
		     size_t room)
{
	struct entry *all;
	uint64_t pos;
	size_t i, end, n = 0;

	pthread_mutex_lock(&p->lock);
	if (!ff_hmap_find(&p->index, &handle, sizeof(handle), &pos))
		goto out;
	all = FF_VEC_DATA(&p->entries, struct entry);
	all[pos - 1].done = 1;
	if (room > p->window)
		room = p->window;
	end = p->entries.len;
	if (end - pos > (size_t)SCAN_PER_FILE * room)
		end = pos + (size_t)SCAN_PER_FILE * room;
	for (i = pos; i < end && all[i].dir == all[pos - 1].dir && n < room; i++) {
		if (all[i].done)
			continue;
		all[i].done = 1;
		out[n].handle = all[i].handle;
		out[n].size = all[i].size;
		n++;
	}
out:
	pthread_mutex_unlock(&p->lock);
	return n;
}

static void run_store(void *user, void *job, unsigned worker)
{
	struct ff_push *p = user;
	const struct ff_push_file *f = job;

	(void)worker;
	p->store(p->ctx, f->handle, f->size);
}

int ff_push_start(struct ff_push *p, void (*store)(void *ctx, uint64_t handle, uint32_t size),
		  void *ctx)
{
	struct ff_pool_cfg cfg = {.threads = 1, .queue = QUEUE,
				  .job_size = sizeof(struct ff_push_file), .run = run_store,
				  .user = p};

	p->store = store;
	p->ctx = ctx;
	p->pool = ff_pool_new(&cfg, NULL);
	return p->pool ? 0 : -1;
}

void ff_push_read(struct ff_push *p, uint64_t handle)
{
	struct ff_push_file next[64];
	size_t i, n = ff_push_after(p, handle, next, sizeof(next) / sizeof(next[0]));

	for (i = 0; i < n; i++)
		if (ff_pool_try_submit(p->pool, &next[i]) < 0)
			break;
}
