/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Per-block compression and decompression timing, lzbench style: every
 * block is compressed independently (as SquashFS stores it) by a worker
 * per core over a contiguous share of the blocks; a pass is repeated until
 * a minimum time has gone by, and the best pass gives the speed while the
 * median and worst show the spread.  Times are thread CPU time, so other
 * load on the machine does not slow the figures down. */
#include "bench/bench.h"
#include "common/pool.h"
#include "compress/compress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RAW_BIT 0x80000000u
#define MAX_PASSES 1000
#define BENCH_MAX_THREADS 32

double bench_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct worker {
	const struct bench_layout *l;
	size_t first, last;
	struct ff_comp_ctx *ctx;
	uint8_t *out;          /* compressed blocks of this share, back to back */
	uint64_t *off;         /* per block of the share */
	uint32_t *size;        /* stored size | RAW_BIT */
	uint8_t *scratch;
	int decompress;
	int verify;            /* compare with the input (outside timed passes) */
	double secs;
	uint64_t bytes;        /* uncompressed bytes that went through the codec */
	int rc;
	struct ff_err err;
};

static int compress_share(struct worker *w)
{
	uint64_t pos = 0;

	for (size_t i = w->first; i < w->last; i++) {
		const struct bench_block *b = &w->l->blocks[i];
		size_t k = i - w->first;
		ssize_t r;

		w->off[k] = pos;
		w->size[k] = 0;
		if (b->kind == BENCH_BLOCK_ZERO)
			continue;
		r = ff_comp_compress(w->ctx, b->p, b->len, w->out + pos, b->len, &w->err);
		if (r < 0)
			return -1;
		w->size[k] = r == FF_COMP_NOSHRINK ? (b->len | RAW_BIT) : (uint32_t)r;
		pos += (uint64_t)r;
		w->bytes += b->len;
	}
	return 0;
}

static int decompress_share(struct worker *w)
{
	for (size_t i = w->first; i < w->last; i++) {
		const struct bench_block *b = &w->l->blocks[i];
		size_t k = i - w->first;
		ssize_t r;

		if (b->kind == BENCH_BLOCK_ZERO || (w->size[k] & RAW_BIT))
			continue;
		r = ff_comp_decompress(w->ctx, w->out + w->off[k], w->size[k], w->scratch,
				       w->l->opts.block_size, &w->err);
		if (r < 0)
			return -1;
		if (w->verify && ((size_t)r != b->len || memcmp(w->scratch, b->p, b->len)))
			return ff_err_set(&w->err, EIO, "block %zu: round trip gave %zd bytes, "
							"not the %u compressed", i, r, b->len);
		w->bytes += b->len;
	}
	return 0;
}

static void worker_run(struct worker *w)
{
	double t0 = bench_cpu_now();

	w->bytes = 0;
	w->rc = w->decompress ? decompress_share(w) : compress_share(w);
	w->secs = bench_cpu_now() - t0;
}

static void worker_job(void *user, void *job, unsigned worker)
{
	(void)user;
	(void)worker;
	worker_run(*(struct worker **)job);
}

/* One pass over every block by all workers; returns CPU seconds summed
 * over the workers (= one core's time for the whole corpus). */
static int run_pass(struct worker *w, unsigned n, int decompress, double *secs,
		    uint64_t *bytes, struct ff_err *err)
{
	struct ff_pool_cfg cfg = {.threads = n - 1, .queue = n, .job_size = sizeof(struct worker *),
				  .run = worker_job};
	/* this thread runs the last share; without a pool, every share */
	struct ff_pool *pool = n > 1 ? ff_pool_new(&cfg, NULL) : NULL;

	for (unsigned i = 0; i < n; i++) {
		struct worker *wi = &w[i];

		wi->decompress = decompress;
		if (pool && i < n - 1)
			ff_pool_submit(pool, &wi);
		else
			worker_run(wi);
	}
	ff_pool_free(pool);
	*secs = 0;
	*bytes = 0;
	for (unsigned i = 0; i < n; i++) {
		if (w[i].rc) {
			*err = w[i].err;
			return -1;
		}
		*secs += w[i].secs;
		*bytes += w[i].bytes;
	}
	return 0;
}

static void free_workers(struct worker *w, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		ff_comp_ctx_free(w[i].ctx);
		free(w[i].out);
		free(w[i].off);
		free(w[i].size);
		free(w[i].scratch);
	}
	free(w);
}

/* Contiguous shares of about equal bytes. */
static void split(const struct bench_layout *l, struct worker *w, unsigned n)
{
	uint64_t per = l->bytes / n + 1, acc = 0;
	size_t i = 0;

	for (unsigned k = 0; k < n; k++) {
		w[k].first = i;
		while (i < l->n_blocks && (k == n - 1 || acc < per * (k + 1)))
			acc += l->blocks[i++].len;
		w[k].last = i;
	}
}

static int setup_worker(struct worker *w, const struct bench_layout *l,
			const struct ff_comp *comp, struct ff_err *err)
{
	uint64_t bytes = 0;
	size_t nb = w->last - w->first;

	for (size_t i = w->first; i < w->last; i++)
		bytes += l->blocks[i].len;
	w->l = l;
	w->ctx = ff_comp_ctx_new(comp, err);
	w->out = malloc(bytes + 1);
	w->off = malloc((nb + 1) * sizeof(*w->off));
	w->size = malloc((nb + 1) * sizeof(*w->size));
	w->scratch = malloc(l->opts.block_size);
	if (!w->ctx)
		return -1;
	if (!w->out || !w->off || !w->size || !w->scratch)
		return ff_err_set(err, ENOMEM, "bench: out of memory for compressed blocks");
	/* fault the pages in now, not inside the first timed pass */
	memset(w->out, 0, bytes + 1);
	memset(w->scratch, 0, l->opts.block_size);
	return 0;
}

static struct worker *make_workers(const struct bench_layout *l, const struct ff_comp *comp,
				   unsigned n, struct ff_err *err)
{
	struct worker *w = calloc(n, sizeof(*w));

	if (!w) {
		ff_err_set(err, ENOMEM, "bench: out of memory");
		return NULL;
	}
	split(l, w, n);
	for (unsigned i = 0; i < n; i++) {
		if (setup_worker(&w[i], l, comp, err)) {
			free_workers(w, n);
			return NULL;
		}
	}
	return w;
}

struct bench_harness {
	struct worker *w;
	unsigned n;
};

struct bench_harness *bench_harness_new(const struct bench_layout *l, const struct ff_comp *comp,
					unsigned threads, struct ff_err *err)
{
	struct bench_harness *h = calloc(1, sizeof(*h));

	if (!h) {
		ff_err_set(err, ENOMEM, "bench: out of memory");
		return NULL;
	}
	h->n = threads < 1 ? 1 : threads > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : threads;
	h->w = make_workers(l, comp, h->n, err);
	if (!h->w) {
		free(h);
		return NULL;
	}
	return h;
}

int bench_harness_pass(struct bench_harness *h, int decompress, double *mbps, double *secs,
		       struct ff_err *err)
{
	uint64_t bytes;

	if (run_pass(h->w, h->n, decompress, secs, &bytes, err))
		return -1;
	*mbps = *secs > 0 ? (double)bytes / 1e6 / *secs : 0;
	return 0;
}

void bench_harness_free(struct bench_harness *h)
{
	if (!h)
		return;
	free_workers(h->w, h->n);
	free(h);
}
