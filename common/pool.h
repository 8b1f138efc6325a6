/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one worker pool: N threads take fixed-size job records from a ring
 * in submission order and run one callback on each.
 *
 * Two ways to use it:
 * - unordered (fire and forget): ff_pool_submit waits while the ring is
 *   full, ff_pool_try_submit does not, and the submitting thread may run a
 *   queued job itself (ff_pool_help) instead of waiting;
 * - ordered: a job's record stays in the ring after it has run until the
 *   submitter retires it with ff_pool_retire, oldest first, so results are
 *   consumed in submission order whatever the number of threads (the
 *   SquashFS writer's images do not depend on -j).  A full ring is the
 *   submitter's to empty: it retires before it submits again.
 *
 * Only one thread submits, helps and retires; the workers run jobs.  One
 * lock is taken per submit, per job a worker starts and ends, and per
 * retire that has to wait; a worker wakes the retiring thread only for the
 * job it waits on. */
#ifndef FF_COMMON_POOL_H
#define FF_COMMON_POOL_H

#include <pthread.h>
#include <stddef.h>

#include "common/error.h"

struct ff_pool;

/* Runs one job.  job points to the record (a copy in unordered mode);
 * worker is 0..threads-1 for the pool's threads and equals
 * ff_pool_threads() when the submitter helps, so per-worker state (a codec
 * context, a buffer) can be indexed by it. */
typedef void (*ff_pool_fn)(void *user, void *job, unsigned worker);

struct ff_pool_cfg {
	unsigned threads; /* workers wanted; fewer may start, never none */
	size_t queue;     /* records the ring holds (at least 1) */
	size_t job_size;  /* bytes per record, copied in by submit */
	int ordered;      /* keep records until ff_pool_retire */
	ff_pool_fn run;
	void *user;
};

/* NULL with err set when out of memory or no thread could start. */
struct ff_pool *ff_pool_new(const struct ff_pool_cfg *cfg, struct ff_err *err);
/* A background task: one thread runs run(user, job, 0) once (job points
 * to a zero byte); ff_pool_free waits for it to return.  NULL with err set
 * when the thread cannot start. */
struct ff_pool *ff_pool_task(ff_pool_fn run, void *user, struct ff_err *err);
/* The number of threads that started. */
unsigned ff_pool_threads(const struct ff_pool *p);
/* The CPUs online, at least 1: the default thread count everywhere. */
unsigned ff_online_cpus(void);

/* Queues a copy of job.  Unordered: waits while the ring is full.
 * Ordered: the ring must have room (ff_pool_pending() < queue). */
void ff_pool_submit(struct ff_pool *p, const void *job);
/* Unordered: queues a copy of job; -1 when the ring is full. */
int ff_pool_try_submit(struct ff_pool *p, const void *job);
/* Unordered: runs the oldest queued job on the calling thread (worker
 * number ff_pool_threads()); 0 when nothing was queued. */
int ff_pool_help(struct ff_pool *p);

/* Ordered: waits for the oldest job not yet retired to have run and copies
 * its record to out; 0 when there is none. */
int ff_pool_retire(struct ff_pool *p, void *out);
/* Ordered: jobs submitted and not yet retired. */
size_t ff_pool_pending(const struct ff_pool *p);

/* Unordered: waits until every job submitted so far has run. */
void ff_pool_drain(struct ff_pool *p);
/* Lets the workers run what is queued, stops and joins them, frees. */
void ff_pool_free(struct ff_pool *p);
/* For jobs that sleep on the caller's own lock and condition (a
 * background task): sets *stop under lock and wakes every waiter, so none
 * can miss it between its check and its wait, then ff_pool_free(p), then
 * destroys lock and wake. */
void ff_pool_stop(struct ff_pool *p, pthread_mutex_t *lock, pthread_cond_t *wake, int *stop);

#endif
