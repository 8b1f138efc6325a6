/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Read-ahead across files.  tar and cp -r read a tree one file at a time,
 * and each read waits for its block to be decompressed; here worker
 * threads decompress the blocks that come next while the reader is busy
 * with the current ones.  "Next" is the inode table's order: mksquashfs
 * and mkfs.squashfs number inodes and write file data in the same name
 * order, depth first, which is also the order a tree walk reads files in.
 *
 * A ring of planned blocks runs ahead of the reader.  Each read is looked
 * up in it: a hit drops the entries the reader has passed (and widens the
 * window, as the guess proved right); a miss that still looks sequential
 * restarts the plan after the block being read.  Random reads neither hit
 * nor look sequential, so they start nothing.  Decoded blocks go to the
 * reader's data cache, whose budget bounds them like any other; the window
 * keeps them to a quarter of it so they are not evicted before use. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "squashfs/fs_reader.h"

#define RING 256      /* planned blocks, plus markers for files with none */
#define PLAN_BATCH 16 /* entries planned per step */
#define WALK_MAX 256  /* inodes looked at per step */
#define MAX_THREADS 8

struct job {
	uint64_t ref, idx, start;
	uint32_t size; /* 0: marker only (sparse, or the fragment just planned) */
};

struct cursor {
	uint64_t ref, idx;  /* next block to plan */
	uint64_t last;      /* start of the last block planned */
	int valid;
};

struct sqfs_prefetch {
	struct sqfs_rd *rd;
	pthread_mutex_t lock;     /* all below; taken before the pool's */
	struct ff_pool *pool;     /* runs tick() jobs; started with the first plan */
	unsigned nthreads, want_threads;
	int stop, planning, started;
	unsigned ticks;           /* tick() jobs queued or running */
	uint64_t epoch;           /* bumped on restart: plans made before are stale */
	struct job ring[RING];
	uint64_t first, end, next_job; /* sequence numbers: the ring holds [first, end);
					  * next_job is the oldest not yet taken */
	uint64_t ahead;           /* decoded bytes the ring stands for */
	uint64_t win, min_win, max_win;
	struct cursor cur;
	uint64_t last_ref;        /* file of the latest read */
	int last_end;             /* and whether it reached the end of that file */
	unsigned seq;             /* reads in a row that looked sequential */
};

/* Moves c to the inode after c->ref; -1 at the end of the table. */
static int next_inode(struct sqfs_rd *rd, struct cursor *c)
{
	struct ff_err err = {0};
	struct sqfs_node n;

	if (sqfs_node_load(rd, c->ref, &n, &err) < 0 || sqfs_node_skip_tail(rd, &n, &err) < 0 ||
	    sqfs_meta_normalize(rd, &n.tail, &err) < 0)
		return -1;
	c->ref = ((n.tail.block - rd->sb.inode_table) << 16) | n.tail.offset;
	c->idx = 0;
	return 0;
}

/* Blocks of the file at c; 0 when it has no more (or is no file). */
static ssize_t plan_file(struct sqfs_rd *rd, struct cursor *c, struct job *out, size_t cap)
{
	struct sqfs_blkref b[PLAN_BATCH];
	struct ff_err err = {0};
	ssize_t got = sqfs_file_blocks(rd, c->ref, c->idx, b, cap, &err);

	if (got < 0)
		return err.code == EISDIR ? 0 : -1;
	for (ssize_t i = 0; i < got; i++) {
		uint32_t size = b[i].size & SQFS_BLOCK_SIZE_MASK ? b[i].size : 0;

		/* small files in a row share one fragment: load it once */
		if (size && b[i].start == c->last)
			size = 0;
		if (size)
			c->last = b[i].start;
		out[i] = (struct job){c->ref, b[i].idx, b[i].start, size};
		c->idx = b[i].idx + 1;
	}
	return got;
}

static size_t plan(struct sqfs_rd *rd, struct cursor *c, struct job *out, size_t cap)
{
	for (unsigned walked = 0; c->valid && walked < WALK_MAX; walked++) {
		ssize_t got = plan_file(rd, c, out, cap);

		if (got > 0)
			return (size_t)got;
		/* a damaged inode ends the plan; reads will report it */
		if (got < 0 || next_inode(rd, c) < 0)
			c->valid = 0;
	}
	return 0;
}

static void drop_before(struct sqfs_prefetch *p, uint64_t seq)
{
	for (; p->first < seq; p->first++)
		if (p->ring[p->first % RING].size)
			p->ahead -= p->rd->sb.block_size;
	if (p->next_job < p->first)
		p->next_job = p->first;
}

static int want_plan(const struct sqfs_prefetch *p)
{
	return !p->planning && p->cur.valid && p->ahead < p->win && p->end - p->first < RING;
}

/* Sets an idle worker going (queues a tick) when there is a job, or when
 * the window has drained to half: planning then goes on in batches rather
 * than one wake-up per block the reader consumes. */
static void kick(struct sqfs_prefetch *p)
{
	uint8_t tick = 0;

	if (p->pool && p->ticks < p->nthreads &&
	    (p->next_job < p->end || (want_plan(p) && p->ahead <= p->win / 2)) &&
	    ff_pool_try_submit(p->pool, &tick) == 0)
		p->ticks++;
}

/* One planning step, made without the lock (it reads metadata). */
static void plan_step(struct sqfs_prefetch *p)
{
	uint64_t bs = p->rd->sb.block_size, epoch = p->epoch;
	size_t cap = RING - (size_t)(p->end - p->first), n;
	struct cursor c = p->cur;
	struct job out[PLAN_BATCH];

	if (cap > PLAN_BATCH)
		cap = PLAN_BATCH;
	if (cap > (p->win - p->ahead + bs - 1) / bs)
		cap = (size_t)((p->win - p->ahead + bs - 1) / bs);
	p->planning = 1;
	pthread_mutex_unlock(&p->lock);
	n = plan(p->rd, &c, out, cap);
	pthread_mutex_lock(&p->lock);
	p->planning = 0;
	if (epoch != p->epoch)
		return;
	for (size_t i = 0; i < n; i++) {
		p->ring[p->end++ % RING] = out[i];
		if (out[i].size)
			p->ahead += bs;
	}
	p->cur = c;
	kick(p);
}

/* A worker's turn: it decodes planned blocks and plans more while there
 * is something to do, then gives its thread back to the pool. */
static void tick(void *user, void *job, unsigned worker)
{
	struct sqfs_prefetch *p = user;

	(void)job;
	(void)worker;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (p->next_job < p->end) {
			struct job j = p->ring[p->next_job++ % RING];

			if (!j.size)
				continue;
			pthread_mutex_unlock(&p->lock);
			sqfs_block_preload(p->rd, j.start, j.size);
			pthread_mutex_lock(&p->lock);
		} else if (want_plan(p)) {
			plan_step(p);
		} else {
			break;
		}
	}
	p->ticks--;
	pthread_mutex_unlock(&p->lock);
}

/* The first planned entry of file ref at or after block idx, or -1. */
static int64_t find(const struct sqfs_prefetch *p, uint64_t ref, uint64_t idx)
{
	for (uint64_t s = p->first; s < p->end; s++) {
		const struct job *j = &p->ring[s % RING];

		if (j->ref == ref && j->idx >= idx)
			return (int64_t)s;
	}
	return -1;
}

/* b lies at most two metadata blocks after a in the inode table. */
static int follows(uint64_t a, uint64_t b)
{
	return b > a && sqfs_ref_block(b) - sqfs_ref_block(a) <= 2 * (SQFS_META_SIZE + 2);
}

/* Workers start with the first plan, not at open: a mounter forks into
 * the background after opening the image, and threads do not survive
 * that. */
static void start_workers(struct sqfs_prefetch *p)
{
	struct ff_pool_cfg cfg = {.threads = p->want_threads, .queue = p->want_threads,
				  .job_size = 1, .run = tick, .user = p};

	p->started = 1;
	if (p->want_threads)
		p->pool = ff_pool_new(&cfg, NULL); /* NULL: no prefetching */
	if (p->pool)
		p->nthreads = ff_pool_threads(p->pool);
}

static void restart(struct sqfs_prefetch *p, uint64_t ref, uint64_t idx)
{
	if (!p->started)
		start_workers(p);
	drop_before(p, p->end);
	p->cur = (struct cursor){ref, idx, 0, 1};
	p->epoch++;
	p->win = p->min_win;
	kick(p);
}

/* Sequential: on in the same file, or the start of a file soon after the
 * one whose end was read last.  Random reads seldom look like either. */
static int sequential(const struct sqfs_prefetch *p, uint64_t ref, uint64_t idx)
{
	if (ref == p->last_ref)
		return 1;
	return idx == 0 && p->last_end && follows(p->last_ref, ref);
}

void sqfs_prefetch_note(struct sqfs_prefetch *p, uint64_t ref, uint64_t idx, int at_end)
{
	int64_t s;

	if (!p || pthread_mutex_trylock(&p->lock) != 0)
		return;
	s = find(p, ref, idx);
	if (s >= 0) {
		drop_before(p, (uint64_t)s);
		if (p->win < p->max_win)
			p->win = p->win * 2 < p->max_win ? p->win * 2 : p->max_win;
		kick(p);
	} else if (p->cur.valid && ref == p->cur.ref && idx <= p->cur.idx) {
		/* caught up with the plan, which is right, just late: all that
		 * is planned lies behind the reader */
		drop_before(p, p->end);
		kick(p);
	} else if (sequential(p, ref, idx)) {
		if (++p->seq >= 2)
			restart(p, ref, idx + 1);
	} else {
		p->seq = 0;
	}
	p->last_ref = ref;
	p->last_end = at_end;
	pthread_mutex_unlock(&p->lock);
}

void sqfs_prefetch_free(struct sqfs_prefetch *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = 1; /* queued ticks return at once */
	pthread_mutex_unlock(&p->lock);
	ff_pool_free(p->pool);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

struct sqfs_prefetch *sqfs_prefetch_new(struct sqfs_rd *rd, uint64_t window, unsigned threads)
{
	struct sqfs_prefetch *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->rd = rd;
	p->max_win = window;
	p->min_win = rd->sb.block_size; /* grows as the guesses prove right */
	p->win = p->min_win;
	p->last_ref = UINT64_MAX; /* no file yet (0 is a valid reference) */
	pthread_mutex_init(&p->lock, NULL);
	p->want_threads = threads < MAX_THREADS ? threads : MAX_THREADS;
	return p;
}
