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
 * A listing's first files are pushed before any of them is read, once a
 * walker is known to read what it lists: a READ of a file's start came
 * within the last QUIET_LISTINGS listings.  Otherwise the first file of
 * every directory cost a READ, and it only started the push (on minbase,
 * 489 of a zstd tar's 1,958 READs came right after a READDIRPLUS).  The
 * head goes when the kernel asks for the listing's next part (for most
 * directories the empty reply that ends it): by then the requester has
 * linked the entries of the first part, so the kernel knows every node
 * stored, where right after the first reply it may not yet.  A walk that
 * only lists (find, ls -lR) never reads, so nothing is pushed for it; a
 * listing walk after a reading one costs at most QUIET_LISTINGS heads.
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
/* Listings in a row without a READ after which a walk counts as one that
 * only lists: its listings' heads are no longer pushed. */
#define QUIET_LISTINGS 16

/* An entry's state: queued for the store thread, or its start read by the
 * walker (then a store still queued is skipped). */
enum { PUSHED = 1, READ_SEEN = 2 };

struct entry {
	uint64_t handle;
	uint64_t dir;
	uint32_t size;
	uint32_t done; /* 0, PUSHED, or READ_SEEN */
};

struct ff_push {
	pthread_mutex_t lock;
	unsigned window;
	uint32_t max_size;
	struct ff_vec entries; /* struct entry, in listing order */
	struct ff_hmap index;  /* handle -> position + 1 in entries */
	/* The latest listing: its directory and first entry, and whether
	 * its head was handed out. */
	uint64_t list_dir;
	size_t list_start;
	int list_head_done;
	unsigned quiet; /* listings since the last READ of a file's start */
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
	p->quiet = QUIET_LISTINGS; /* nothing read yet */
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
	p->list_head_done = 1;
}

/* Entries of one listing are appended together: one that starts a new
 * directory starts the latest listing. */
static void note_listing(struct ff_push *p, uint64_t dir)
{
	const struct entry *all = FF_VEC_DATA(&p->entries, struct entry);

	if (p->entries.len && all[p->entries.len - 1].dir == dir)
		return;
	p->list_dir = dir;
	p->list_start = p->entries.len;
	p->list_head_done = 0;
	if (p->quiet < QUIET_LISTINGS)
		p->quiet++;
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
	note_listing(p, dir);
	/* Out of memory: the file is not pushed, which is only slower. */
	if (ff_vec_push(&p->entries, &e) < 0)
		goto out;
	if (ff_hmap_set(&p->index, &handle, sizeof(handle), p->entries.len) < 0)
		p->entries.len--;
out:
	pthread_mutex_unlock(&p->lock);
}

/* Up to `room` (at most the window) entries of `dir`'s listing from
 * `from` on that were neither pushed nor read, marked pushed. */
static size_t take(struct ff_push *p, size_t from, uint64_t dir, struct ff_push_file *out,
		   size_t room)
{
	struct entry *all = FF_VEC_DATA(&p->entries, struct entry);
	size_t i, end = p->entries.len, n = 0;

	if (room > p->window)
		room = p->window;
	if (end - from > (size_t)SCAN_PER_FILE * room)
		end = from + (size_t)SCAN_PER_FILE * room;
	for (i = from; i < end && all[i].dir == dir && n < room; i++) {
		if (all[i].done)
			continue;
		all[i].done = PUSHED;
		out[n].handle = all[i].handle;
		out[n].size = all[i].size;
		n++;
	}
	return n;
}

size_t ff_push_after(struct ff_push *p, uint64_t handle, struct ff_push_file *out,
		     size_t room)
{
	struct entry *all;
	uint64_t pos;
	size_t n = 0;

	pthread_mutex_lock(&p->lock);
	p->quiet = 0;
	if (ff_hmap_find(&p->index, &handle, sizeof(handle), &pos)) {
		all = FF_VEC_DATA(&p->entries, struct entry);
		all[pos - 1].done = READ_SEEN;
		n = take(p, (size_t)pos, all[pos - 1].dir, out, room);
	}
	pthread_mutex_unlock(&p->lock);
	return n;
}

size_t ff_push_head(struct ff_push *p, uint64_t dir, struct ff_push_file *out, size_t room)
{
	size_t n = 0;

	pthread_mutex_lock(&p->lock);
	if (!p->list_head_done && p->list_dir == dir && p->quiet < QUIET_LISTINGS) {
		p->list_head_done = 1;
		n = take(p, p->list_start, dir, out, room);
	}
	pthread_mutex_unlock(&p->lock);
	return n;
}

int ff_push_wanted(struct ff_push *p, uint64_t handle)
{
	uint64_t pos;
	int wanted = 1;

	pthread_mutex_lock(&p->lock);
	if (ff_hmap_find(&p->index, &handle, sizeof(handle), &pos))
		wanted = FF_VEC_DATA(&p->entries, struct entry)[pos - 1].done != READ_SEEN;
	pthread_mutex_unlock(&p->lock);
	return wanted;
}

/* A file the walker got to first is in the page cache already: storing it
 * again would only keep this thread behind the walker, file after file
 * (measured: on a cold zstd tar of minbase 2,800 READs came for files
 * queued here and not stored yet). */
static void run_store(void *user, void *job, unsigned worker)
{
	struct ff_push *p = user;
	const struct ff_push_file *f = job;

	(void)worker;
	if (ff_push_wanted(p, f->handle))
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

static void submit(struct ff_push *p, const struct ff_push_file *files, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ff_pool_try_submit(p->pool, &files[i]) < 0)
			break;
}

void ff_push_read(struct ff_push *p, uint64_t handle)
{
	struct ff_push_file next[64];

	submit(p, next, ff_push_after(p, handle, next, sizeof(next) / sizeof(next[0])));
}

void ff_push_listing_on(struct ff_push *p, uint64_t dir)
{
	struct ff_push_file head[64];

	submit(p, head, ff_push_head(p, dir, head, sizeof(head) / sizeof(head[0])));
}
