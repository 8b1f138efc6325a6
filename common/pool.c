/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one worker pool (see pool.h).  The ring holds sequence numbers
 * [retire, claim) being run or done (ordered mode only), and
 * [claim, submit) waiting for a worker.  Unordered, a record is copied to
 * the worker's scratch when claimed, so its slot is free at once. */
#include "common/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

struct ff_pool {
	pthread_mutex_t lock;
	pthread_cond_t work;  /* workers: a job was queued, or stop */
	pthread_cond_t done;  /* submitter: a job ended, or room in the ring */
	struct ff_pool_cfg cfg;
	unsigned char *recs;  /* queue records of job_size bytes */
	unsigned char *state; /* ordered: JOB_* per slot */
	unsigned char *scratch; /* unordered: one record per worker, + helper */
	uint64_t submit, claim, retire;
	uint64_t waiting_for; /* ordered: the job the retirer sleeps on, or ~0 */
	unsigned running;     /* jobs being run by workers */
	int sleeping;         /* the submitter waits on done */
	int stop, inited;
	unsigned started, ids;
	pthread_t *threads;
};

static unsigned char *rec(struct ff_pool *p, uint64_t seq)
{
	return p->recs + (seq % p->cfg.queue) * p->cfg.job_size;
}

/* Takes the oldest queued job under the lock; the record to run it on. */
static void *claim(struct ff_pool *p, unsigned worker)
{
	uint64_t seq = p->claim++;
	unsigned char *r = rec(p, seq);

	if (p->cfg.ordered) {
		p->state[seq % p->cfg.queue] = JOB_RUNNING;
		return r;
	}
	memcpy(p->scratch + (size_t)worker * p->cfg.job_size, r, p->cfg.job_size);
	if (p->sleeping)
		pthread_cond_signal(&p->done); /* room for a waiting submit */
	return p->scratch + (size_t)worker * p->cfg.job_size;
}

/* After job seq has run, under the lock: wakes the submitter only when it
 * waits for exactly this (ordered) or for the pool to go idle. */
static void finish(struct ff_pool *p, uint64_t seq)
{
	if (p->cfg.ordered) {
		p->state[seq % p->cfg.queue] = JOB_DONE;
		if (p->waiting_for == seq)
			pthread_cond_signal(&p->done);
	} else if (p->sleeping && !p->running && p->claim == p->submit) {
		pthread_cond_signal(&p->done);
	}
}

static void *worker(void *arg)
{
	struct ff_pool *p = arg;
	unsigned id;

	pthread_mutex_lock(&p->lock);
	id = p->ids++;
	for (;;) {
		uint64_t seq;
		void *job;

		while (!p->stop && p->claim == p->submit)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->claim == p->submit)
			break; /* stopping, and nothing left to run */
		seq = p->claim;
		job = claim(p, id);
		p->running++;
		pthread_mutex_unlock(&p->lock);
		p->cfg.run(p->cfg.user, job, id);
		pthread_mutex_lock(&p->lock);
		p->running--;
		finish(p, seq);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static int alloc_ring(struct ff_pool *p, unsigned threads)
{
	p->recs = calloc(p->cfg.queue, p->cfg.job_size);
	p->threads = calloc(threads, sizeof(*p->threads));
	if (p->cfg.ordered)
		p->state = calloc(p->cfg.queue, 1);
	else
		p->scratch = calloc((size_t)threads + 1, p->cfg.job_size);
	return p->recs && p->threads && (p->state || p->scratch) ? 0 : -1;
}

struct ff_pool *ff_pool_new(const struct ff_pool_cfg *cfg, struct ff_err *err)
{
	struct ff_pool *p = calloc(1, sizeof(*p));
	unsigned want = cfg->threads ? cfg->threads : 1;
	int e = 0;

	if (!p || (p->cfg = *cfg, !cfg->queue || !cfg->job_size) || alloc_ring(p, want) < 0) {
		ff_pool_free(p);
		ff_err_set(err, ENOMEM, "worker pool: out of memory");
		return NULL;
	}
	p->waiting_for = UINT64_MAX;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->inited = 1;
	while (p->started < want && !(e = pthread_create(&p->threads[p->started], NULL, worker, p)))
		p->started++;
	if (!p->started) {
		ff_pool_free(p);
		ff_err_sys(err, e, "worker pool: cannot start a thread");
		return NULL;
	}
	return p;
}

struct ff_pool *ff_pool_task(ff_pool_fn run, void *user, struct ff_err *err)
{
	struct ff_pool_cfg cfg = {.threads = 1, .queue = 1, .job_size = 1, .run = run,
				  .user = user};
	struct ff_pool *p = ff_pool_new(&cfg, err);
	uint8_t zero = 0;

	if (p)
		ff_pool_submit(p, &zero);
	return p;
}

unsigned ff_pool_threads(const struct ff_pool *p)
{
	return p->started;
}

static void queue(struct ff_pool *p, const void *job)
{
	memcpy(rec(p, p->submit), job, p->cfg.job_size);
	if (p->cfg.ordered)
		p->state[p->submit % p->cfg.queue] = JOB_QUEUED;
	p->submit++;
	pthread_cond_signal(&p->work);
}

/* No room for another record: unordered, the unclaimed ones fill the
 * ring; ordered, the unretired ones. */
static int full(const struct ff_pool *p)
{
	uint64_t first = p->cfg.ordered ? p->retire : p->claim;

	return p->submit - first == p->cfg.queue;
}

void ff_pool_submit(struct ff_pool *p, const void *job)
{
	pthread_mutex_lock(&p->lock);
	while (!p->cfg.ordered && full(p)) {
		p->sleeping = 1;
		pthread_cond_wait(&p->done, &p->lock);
		p->sleeping = 0;
	}
	queue(p, job);
	pthread_mutex_unlock(&p->lock);
}

int ff_pool_try_submit(struct ff_pool *p, const void *job)
{
	int ret = -1;

	pthread_mutex_lock(&p->lock);
	if (!full(p)) {
		queue(p, job);
		ret = 0;
	}
	pthread_mutex_unlock(&p->lock);
	return ret;
}

int ff_pool_help(struct ff_pool *p)
{
	void *job = NULL;

	pthread_mutex_lock(&p->lock);
	if (!p->cfg.ordered && p->claim != p->submit)
		job = claim(p, p->started);
	pthread_mutex_unlock(&p->lock);
	if (!job)
		return 0;
	p->cfg.run(p->cfg.user, job, p->started);
	return 1;
}

int ff_pool_retire(struct ff_pool *p, void *out)
{
	unsigned char *state;

	if (p->retire == p->submit) /* only the submitter moves either */
		return 0;
	state = &p->state[p->retire % p->cfg.queue];
	pthread_mutex_lock(&p->lock);
	if (*state != JOB_DONE) {
		p->waiting_for = p->retire;
		while (*state != JOB_DONE)
			pthread_cond_wait(&p->done, &p->lock);
		p->waiting_for = UINT64_MAX;
	}
	memcpy(out, rec(p, p->retire), p->cfg.job_size);
	p->retire++;
	pthread_mutex_unlock(&p->lock);
	return 1;
}

size_t ff_pool_pending(const struct ff_pool *p)
{
	return (size_t)(p->submit - p->retire);
}

void ff_pool_drain(struct ff_pool *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->running || p->claim != p->submit) {
		p->sleeping = 1;
		pthread_cond_wait(&p->done, &p->lock);
		p->sleeping = 0;
	}
	pthread_mutex_unlock(&p->lock);
}

void ff_pool_stop(struct ff_pool *p, pthread_mutex_t *lock, pthread_cond_t *wake, int *stop)
{
	pthread_mutex_lock(lock);
	*stop = 1;
	pthread_cond_broadcast(wake);
	pthread_mutex_unlock(lock);
	ff_pool_free(p);
	pthread_cond_destroy(wake);
	pthread_mutex_destroy(lock);
}

void ff_pool_free(struct ff_pool *p)
{
	if (!p)
		return;
	if (p->started) {
		pthread_mutex_lock(&p->lock);
		p->stop = 1;
		pthread_cond_broadcast(&p->work);
		pthread_mutex_unlock(&p->lock);
		for (unsigned i = 0; i < p->started; i++)
			pthread_join(p->threads[i], NULL);
	}
	if (p->inited) {
		pthread_cond_destroy(&p->done);
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->lock);
	}
	free(p->recs);
	free(p->state);
	free(p->scratch);
	free(p->threads);
	free(p);
}

unsigned ff_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
