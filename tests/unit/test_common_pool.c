/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/pool.c: ordered mode hands results back in submission order
 * whatever thread finished first; unordered mode runs every job exactly
 * once, lets the submitter help, refuses when full, drains, and runs what
 * is queued before it stops; a task runs once.  Run it under
 * `valgrind --tool=helgrind` to check the locking. */
#include <setjmp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/pool.h"

#define N_JOBS 2000

struct counts {
	atomic_int ran[N_JOBS];
	atomic_int by_helper;
	atomic_int gate; /* workers spin while 0 */
	unsigned threads;
};

struct ojob {
	unsigned seq;
	unsigned result;
};

/* Later jobs finish sooner: jobs 0, 4, 8... sleep a little. */
static void ordered_run(void *user, void *job, unsigned worker)
{
	struct ojob *j = job;

	(void)user;
	assert_true(worker < 4);
	if (j->seq % 4 == 0)
		nanosleep(&(struct timespec){0, 20000}, NULL);
	j->result = j->seq * 3 + 1;
}

static void ordered_results(void **state)
{
	struct ff_pool_cfg cfg = {.threads = 4, .queue = 16, .job_size = sizeof(struct ojob),
				  .ordered = 1, .run = ordered_run};
	struct ff_pool *p = ff_pool_new(&cfg, NULL);
	unsigned next = 0;
	struct ojob out;

	(void)state;
	assert_non_null(p);
	for (unsigned seq = 0; seq < N_JOBS; seq++) {
		struct ojob j = {seq, 0};

		if (ff_pool_pending(p) == cfg.queue) {
			assert_int_equal(ff_pool_retire(p, &out), 1);
			assert_int_equal(out.seq, next);
			assert_int_equal(out.result, next * 3 + 1);
			next++;
		}
		ff_pool_submit(p, &j);
	}
	while (ff_pool_retire(p, &out)) {
		assert_int_equal(out.seq, next);
		assert_int_equal(out.result, next * 3 + 1);
		next++;
	}
	assert_int_equal(next, N_JOBS);
	assert_int_equal(ff_pool_pending(p), 0);
	ff_pool_free(p);
}

static void count_run(void *user, void *job, unsigned worker)
{
	struct counts *c = user;
	unsigned i = *(unsigned *)job;

	while (!atomic_load(&c->gate))
		;
	if (worker == c->threads)
		atomic_fetch_add(&c->by_helper, 1);
	atomic_fetch_add(&c->ran[i], 1);
}

static void unordered_each_once(void **state)
{
	static struct counts c;
	struct ff_pool_cfg cfg = {.threads = 3, .queue = 8, .job_size = sizeof(unsigned),
				  .run = count_run, .user = &c};
	struct ff_pool *p;
	unsigned refused = 0;

	(void)state;
	atomic_store(&c.gate, 0);
	p = ff_pool_new(&cfg, NULL);
	assert_non_null(p);
	c.threads = ff_pool_threads(p);
	assert_int_equal(c.threads, 3);
	/* with the workers held, the ring fills: 3 taken, 8 queued, then no */
	for (unsigned i = 0; i < 11 + 1; i++)
		if (ff_pool_try_submit(p, &i) < 0)
			refused++;
	assert_true(refused >= 1);
	atomic_store(&c.gate, 1);
	ff_pool_drain(p);
	for (unsigned i = 0; i < N_JOBS; i++) {
		if (i < 12)
			continue;
		while (ff_pool_try_submit(p, &i) < 0)
			ff_pool_help(p);
	}
	ff_pool_drain(p);
	for (unsigned i = 12; i < N_JOBS; i++)
		assert_int_equal(atomic_load(&c.ran[i]), 1);
	ff_pool_free(p);
}

static void free_runs_queued(void **state)
{
	static struct counts c;
	struct ff_pool_cfg cfg = {.threads = 2, .queue = 64, .job_size = sizeof(unsigned),
				  .run = count_run, .user = &c};
	struct ff_pool *p = ff_pool_new(&cfg, NULL);

	(void)state;
	assert_non_null(p);
	c.threads = ff_pool_threads(p);
	atomic_store(&c.gate, 1);
	for (unsigned i = 0; i < 64; i++)
		ff_pool_submit(p, &i); /* waits when full, never fails */
	ff_pool_free(p);
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(atomic_load(&c.ran[i]), 1);
	assert_int_equal(atomic_load(&c.by_helper), 0);
}

static void task_run(void *user, void *job, unsigned worker)
{
	assert_int_equal(*(uint8_t *)job, 0);
	assert_int_equal(worker, 0);
	atomic_fetch_add((atomic_int *)user, 1);
}

static void task_runs_once(void **state)
{
	atomic_int n = 0;
	struct ff_pool *p = ff_pool_task(task_run, &n, NULL);

	(void)state;
	assert_non_null(p);
	ff_pool_free(p);
	assert_int_equal(atomic_load(&n), 1);
	ff_pool_free(NULL);
}

struct sleeper {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop, woke;
};

static void sleep_until_stop(void *user, void *job, unsigned worker)
{
	struct sleeper *s = user;

	(void)job;
	(void)worker;
	pthread_mutex_lock(&s->lock);
	while (!s->stop)
		pthread_cond_wait(&s->wake, &s->lock);
	s->woke = 1;
	pthread_mutex_unlock(&s->lock);
}

/* A task asleep on its own condition is woken and joined. */
static void stop_wakes_task(void **state)
{
	static struct sleeper s;
	struct ff_pool *p;

	(void)state;
	pthread_mutex_init(&s.lock, NULL);
	pthread_cond_init(&s.wake, NULL);
	p = ff_pool_task(sleep_until_stop, &s, NULL);
	assert_non_null(p);
	ff_pool_stop(p, &s.lock, &s.wake, &s.stop);
	assert_int_equal(s.woke, 1);
}

static void bad_config(void **state)
{
	struct ff_pool_cfg cfg = {.threads = 1, .queue = 0, .job_size = 4, .run = task_run};
	struct ff_err err = {0};

	(void)state;
	assert_null(ff_pool_new(&cfg, &err));
	assert_int_not_equal(err.code, 0);
}

/* The default thread count: the CPUs online as sysconf counts them, and at
 * least one. */
static void online_cpus(void **state)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	(void)state;
	assert_true(ff_online_cpus() >= 1);
	if (n > 0)
		assert_int_equal(ff_online_cpus(), (unsigned)n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(online_cpus),
		cmocka_unit_test(ordered_results),
		cmocka_unit_test(unordered_each_once),
		cmocka_unit_test(free_runs_queued),
		cmocka_unit_test(task_runs_once),
		cmocka_unit_test(stop_wakes_task),
		cmocka_unit_test(bad_config),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
