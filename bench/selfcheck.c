/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* --self-check: the same blocks through the plainest possible loop — one
 * thread, one context, compress then decompress every block, timed as a
 * whole — to show the harness (worker split, per-pass bookkeeping) does not
 * distort the codec figures.  Both use thread CPU time.
 *
 * On a busy machine two best-of-N figures taken one after the other
 * differ by 15-33% with nothing wrong (issue 20): the load changes between
 * them.  So the two are measured in pairs, interleaved (harness then loop,
 * then loop then harness, ...), each figure of a pair the best of a few
 * passes, and what is judged is the ratio within each pair: a slow spell
 * slows both members alike.  The median ratio gets a distribution-free
 * 95% interval from order statistics (timing noise is skewed and
 * heavy-tailed, so no normal approximation), and only an interval wholly
 * outside the +-10% band says the two differ.
 *
 * The harness runs a worker per core, and on a virtual machine two
 * threads running at once on two CPUs slow each other by 20% and more per
 * CPU second (the host's SMT siblings and shared caches), or speed each
 * other up (the host's clock boost), differently for each codec: CI saw
 * zstd -19 read 0.75x by such a pairing alone, wholly a fact of where the
 * threads ran, not of the harness.  So the whole self-check runs on one
 * CPU, the one it started on: the harness's workers and the plain loop
 * take turns on it and never run at once.  And so that the turns are
 * alike, the plain loop runs with the same company: while it is timed,
 * threads-1 copies of it run beside it on their own contexts (not timed,
 * stopped when it finishes), and the comparison is left with what the
 * harness itself does. */
#include "bench/bench.h"

#include <sys/stat.h>
#include <unistd.h>
#include "compress/compress.h"
#include "tree/build.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct direct {
	const struct bench_layout *l;
	struct ff_comp_ctx *ctx;
	uint8_t *out;       /* compressed blocks back to back */
	uint32_t *size;     /* 0 = not compressed (sparse or no shrink) */
	uint8_t *scratch;
	unsigned repeat;    /* the test hook's slowdown: passes per pass */
	const atomic_int *stop; /* a companion's: leave between blocks once set */
};

/* A copy of the loop run beside the timed one, for the same load. */
struct companion {
	struct direct d;    /* its own context and buffers */
	const struct direct *main;
	pthread_t tid;
	int decompress;
};

struct plain {
	struct direct main; /* the timed loop */
	struct companion *comp;
	unsigned n_comp;
	atomic_int stop;
};

static int stopped(const struct direct *d)
{
	return d->stop && atomic_load_explicit(d->stop, memory_order_relaxed);
}

static int comp_blocks(struct direct *d, uint64_t *bytes, struct ff_err *err)
{
	const struct bench_layout *l = d->l;
	uint64_t pos = 0;

	*bytes = 0;
	for (size_t i = 0; i < l->n_blocks && !stopped(d); i++) {
		ssize_t r;

		d->size[i] = 0;
		if (l->blocks[i].kind == BENCH_BLOCK_ZERO)
			continue;
		r = ff_comp_compress(d->ctx, l->blocks[i].p, l->blocks[i].len, d->out + pos,
				     l->blocks[i].len, err);
		if (r < 0)
			return -1;
		d->size[i] = (uint32_t)r;
		pos += (uint64_t)r;
		*bytes += l->blocks[i].len;
	}
	return 0;
}

static int decomp_blocks(struct direct *d, uint64_t *bytes, struct ff_err *err)
{
	const struct bench_layout *l = d->l;
	uint64_t pos = 0;

	*bytes = 0;
	for (size_t i = 0; i < l->n_blocks && !stopped(d); i++) {
		if (!d->size[i])
			continue;
		if (ff_comp_decompress(d->ctx, d->out + pos, d->size[i], d->scratch,
				       l->opts.block_size, err) < 0)
			return -1;
		pos += d->size[i];
		*bytes += l->blocks[i].len;
	}
	return 0;
}

/* A companion loops until stopped; decompression reads the timed loop's
 * blocks (its own may be cut short by a stop).  A failure here would be
 * the timed loop's too, which reports it. */
static void *companion_run(void *arg)
{
	struct companion *c = arg;
	struct direct v = c->d;
	struct ff_err err = { 0 };
	uint64_t bytes;

	if (c->decompress) {
		v.out = c->main->out;
		v.size = c->main->size;
	}
	while (!stopped(&v)) {
		if (c->decompress ? decomp_blocks(&v, &bytes, &err) : comp_blocks(&v, &bytes, &err))
			break;
	}
	return NULL;
}

static unsigned start_companions(struct plain *p, int decompress)
{
	unsigned started = 0;

	atomic_store(&p->stop, 0);
	for (unsigned i = 0; i < p->n_comp; i++) {
		struct companion *c = &p->comp[i];

		c->decompress = decompress;
		/* without a thread the load is only lighter: the pass goes on */
		if (pthread_create(&c->tid, NULL, companion_run, c))
			break;
		started++;
	}
	return started;
}

static void stop_companions(struct plain *p, unsigned started)
{
	atomic_store(&p->stop, 1);
	for (unsigned i = 0; i < started; i++)
		pthread_join(p->comp[i].tid, NULL);
}

/* One timed pass of the loop, its companions beside it: MB/s and CPU
 * seconds.  With the test hook the blocks go through `repeat` times and
 * count once. */
static int direct_pass(struct plain *p, int decompress, double *mbps, double *secs,
		       struct ff_err *err)
{
	struct direct *d = &p->main;
	unsigned started = start_companions(p, decompress);
	double t0 = bench_cpu_now();
	uint64_t bytes = 0;
	int rc = 0;

	for (unsigned r = 0; !rc && r < (d->repeat > 1 ? d->repeat : 1); r++)
		rc = decompress ? decomp_blocks(d, &bytes, err) : comp_blocks(d, &bytes, err);
	*secs = bench_cpu_now() - t0;
	stop_companions(p, started);
	*mbps = *secs > 0 ? (double)bytes / 1e6 / *secs : 0;
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of_sorted(const double *v, unsigned n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_median_interval(double *v, unsigned n, double level, struct bench_interval *ci)
{
	double pj, cdf;   /* P(B = k - 1), P(B <= k - 1) */
	unsigned k = 1;

	memset(ci, 0, sizeof(*ci));
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), cmp_double);
	ci->median = median_of_sorted(v, n);
	pj = cdf = pow(0.5, n);
	/* widen k while v(k+1)..v(n-k) still covers the median often enough */
	while (2 * (k + 1) <= n + 1) {
		double next = pj * (double)(n - k + 1) / (double)k;

		if (1 - 2 * (cdf + next) < level)
			break;
		pj = next;
		cdf += next;
		k++;
	}
	ci->lo = v[k - 1];
	ci->hi = v[n - k];
	ci->coverage = 1 - 2 * cdf;
	return ci->coverage >= level ? 0 : -1;
}

enum bench_verdict bench_selfcheck_verdict(const struct bench_interval *ci, double band,
					   double factor)
{
	if (ci->lo >= 1 - band && ci->hi <= 1 + band)
		return BENCH_AGREE;
	if (ci->hi < 1 / factor || ci->lo > factor)
		return BENCH_DIFFERS;
	return BENCH_INCONCLUSIVE;
}

const char *bench_verdict_name(enum bench_verdict v)
{
	return v == BENCH_AGREE ? "agree" : v == BENCH_DIFFERS ? "DIFFERS" : "inconclusive";
}

#define MAX_PASSES_PER_ROUND 100
#define MAX_ROUNDS 1000
#define MIN_ROUNDS 6    /* the fewest pairs with a 95% interval */

/* Passes per round, the same for both sides (a best of more passes would
 * favour one): enough that the slower spends about round_time, judged by
 * one untimed pass of each, which also warms the caches and, for
 * decompression, leaves each side its own compressed blocks. */
static int calibrate(struct bench_harness *h, struct plain *d, int decompress,
		     double round_time, unsigned *k, struct ff_err *err)
{
	double mbps, th, td, t;

	if (bench_harness_pass(h, decompress, &mbps, &th, err) ||
	    direct_pass(d, decompress, &mbps, &td, err))
		return -1;
	t = th > td ? th : td;
	*k = t <= 0 || round_time / t >= MAX_PASSES_PER_ROUND ? MAX_PASSES_PER_ROUND
							      : (unsigned)ceil(round_time / t);
	if (*k < 1)
		*k = 1;
	return 0;
}

/* One pair: k passes of each side, alternating, the loop first when
 * !harness_first; each side's figure is its best pass. */
static int one_round(struct bench_harness *h, struct plain *d, int decompress, unsigned k,
		     int harness_first, double *hm, double *dm, struct ff_err *err)
{
	*hm = *dm = 0;
	for (unsigned j = 0; j < 2 * k; j++) {
		int harness = (j % 2 == 0) == harness_first;
		double mbps, secs;

		if (harness ? bench_harness_pass(h, decompress, &mbps, &secs, err)
			    : direct_pass(d, decompress, &mbps, &secs, err))
			return -1;
		if (harness && mbps > *hm)
			*hm = mbps;
		if (!harness && mbps > *dm)
			*dm = mbps;
	}
	return 0;
}

static unsigned rounds_of(const struct bench_selfcheck_opts *o)
{
	unsigned n = o->rounds ? o->rounds : BENCH_SELFCHECK_ROUNDS;

	return n < MIN_ROUNDS ? MIN_ROUNDS : n > MAX_ROUNDS ? MAX_ROUNDS : n;
}

/* The rounds of one phase, judged on the ratio within each pair. */
static int paired_phase(struct bench_harness *h, struct plain *d, int decompress,
			const struct bench_selfcheck_opts *o, struct bench_paired *p,
			struct ff_err *err)
{
	unsigned n = rounds_of(o);
	double *ratio = malloc(3 * (size_t)n * sizeof(*ratio)), *hm = ratio + n, *dm = hm + n;

	memset(p, 0, sizeof(*p));
	if (!ratio)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	if (calibrate(h, d, decompress, o->round_time, &p->passes_per_round, err))
		goto fail;
	for (unsigned i = 0; i < n; i++) {
		if (one_round(h, d, decompress, p->passes_per_round, i % 2 == 0, &hm[i], &dm[i], err))
			goto fail;
		/* nothing went through the codec on either side: nothing differs */
		ratio[i] = dm[i] > 0 ? hm[i] / dm[i] : 1;
		if (dm[i] > p->direct_best)
			p->direct_best = dm[i];
	}
	p->rounds = n;
	bench_median_interval(ratio, n, BENCH_SELFCHECK_LEVEL, &p->ratio);
	qsort(hm, n, sizeof(*hm), cmp_double);
	qsort(dm, n, sizeof(*dm), cmp_double);
	p->harness_mbps = median_of_sorted(hm, n);
	p->direct_mbps = median_of_sorted(dm, n);
	p->verdict = bench_selfcheck_verdict(&p->ratio, BENCH_SELFCHECK_BAND,
					      BENCH_SELFCHECK_DIFFERS);
	free(ratio);
	return 0;
fail:
	free(ratio);
	return -1;
}

static int direct_init(struct direct *d, const struct bench_layout *l, const struct ff_comp *comp,
		       struct ff_err *err)
{
	d->l = l;
	d->ctx = ff_comp_ctx_new(comp, err);
	d->out = malloc(l->bytes + 1);
	d->size = malloc((l->n_blocks + 1) * sizeof(*d->size));
	d->scratch = malloc(l->opts.block_size);
	if (!d->ctx)
		return -1;
	if (!d->out || !d->size || !d->scratch)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	/* fault the pages in now, as the harness does, not in a timed pass */
	memset(d->out, 0, l->bytes + 1);
	memset(d->scratch, 0, l->opts.block_size);
	return 0;
}

static void direct_fini(struct direct *d)
{
	ff_comp_ctx_free(d->ctx);
	free(d->out);
	free(d->size);
	free(d->scratch);
}

/* The timed loop and threads-1 companions, each with its own context. */
static int plain_init(struct plain *p, const struct bench_layout *l, const struct ff_comp *comp,
		      const struct bench_selfcheck_opts *o, struct ff_err *err)
{
	unsigned n = o->threads > 1 ? o->threads - 1 : 0;

	memset(p, 0, sizeof(*p));
	atomic_init(&p->stop, 0);
	if (direct_init(&p->main, l, comp, err))
		return -1;
	p->main.repeat = o->slow_direct;
	p->comp = calloc(n + 1, sizeof(*p->comp));
	if (!p->comp)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	for (; p->n_comp < n; p->n_comp++) {
		struct companion *c = &p->comp[p->n_comp];

		if (direct_init(&c->d, l, comp, err))
			return -1;
		c->main = &p->main;
		c->d.stop = &p->stop;
	}
	return 0;
}

static void plain_fini(struct plain *p)
{
	direct_fini(&p->main);
	/* <=: one that failed half-way holds what it got */
	for (unsigned i = 0; p->comp && i <= p->n_comp; i++)
		direct_fini(&p->comp[i].d);
	free(p->comp);
}

/* Confines the calling thread, and the threads it starts from now on, to
 * the CPU it runs on; *old gets the mask to restore.  0 if pinned. */
static int pin_to_this_cpu(cpu_set_t *old)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(*old), old))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

/* Both sides time whole passes over their blocks, 32 a phase and more:
 * over the whole corpus with a slow codec that was most of the bench
 * (zstd -19 on the demo's 5 MB: 80 s; xz on a 200 MB root file system,
 * half an hour).  The comparison needs only the same blocks on both
 * sides, so it takes an even sample of at most this many bytes (every
 * step-th block, from the first). */
#define SELFCHECK_SAMPLE_BYTES (1u << 20)

/* s shares l's blocks' bytes; only s->blocks is its own (free it). */
static int sample_layout(const struct bench_layout *l, struct bench_layout *s,
			 struct ff_err *err)
{
	size_t step = (size_t)(l->bytes / SELFCHECK_SAMPLE_BYTES) + 1;

	*s = *l;
	s->arena = NULL;
	s->n_blocks = s->cap_blocks = 0;
	s->bytes = 0;
	s->n_frag_blocks = 0;
	s->blocks = malloc(((l->n_blocks + step - 1) / step + 1) * sizeof(*s->blocks));
	if (!s->blocks)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	for (size_t i = 0; i < l->n_blocks; i += step) {
		s->blocks[s->n_blocks++] = l->blocks[i];
		s->bytes += l->blocks[i].len;
		s->n_frag_blocks += l->blocks[i].kind == BENCH_BLOCK_FRAG;
	}
	s->cap_blocks = s->n_blocks;
	return 0;
}

static int selfcheck_blocks(const struct bench_layout *l, const struct bench_codec *bc,
			    const struct bench_selfcheck_opts *o, struct bench_selfcheck *sc,
			    struct ff_err *err)
{
	struct ff_comp *comp = bench_codec_open(bc, l->opts.block_size, err);
	struct bench_harness *h = NULL;
	struct plain *p = malloc(sizeof(*p));
	cpu_set_t old;
	int rc = -1, pinned;

	memset(sc, 0, sizeof(*sc));
	if (!comp || !p) {
		if (comp)
			ff_err_set(err, ENOMEM, "bench: out of memory");
		ff_comp_free(comp);
		free(p);
		return ff_err_prefix(err, "self-check %s", bc->label);
	}
	/* without it (a mask we may not set) the check still runs, with the
	 * machine's pairing noise in it */
	pinned = !pin_to_this_cpu(&old);
	if (!plain_init(p, l, comp, o, err) &&
	    (h = bench_harness_new(l, comp, o->threads, err)) != NULL) {
		/* compression first: each side decompresses its own output */
		rc = paired_phase(h, p, 0, o, &sc->comp, err) ||
				     paired_phase(h, p, 1, o, &sc->decomp, err)
			     ? -1 : 0;
	}
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	bench_harness_free(h);
	plain_fini(p);
	free(p);
	ff_comp_free(comp);
	return rc ? ff_err_prefix(err, "self-check %s", bc->label) : 0;
}

int bench_selfcheck(const struct bench_layout *l, const struct bench_codec *bc,
		    const struct bench_selfcheck_opts *o, struct bench_selfcheck *sc,
		    struct ff_err *err)
{
	struct bench_layout s;
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (sample_layout(l, &s, err))
		return ff_err_prefix(err, "self-check %s", bc->label);
	rc = selfcheck_blocks(&s, bc, o, sc, err);
	free(s.blocks);
	return rc;
}

static void kernel_check(const struct bench_result *r, const char *path, const char *work,
			 struct bench_kernel_check *k)
{
	char mnt[4200], log[4200];

	memset(k, 0, sizeof(*k));
	k->ours_s = r->decomp.best > 0 ? (double)r->read_bytes / 1e6 / r->decomp.best : 0;
	snprintf(mnt, sizeof(mnt), "%s/kmnt", work);
	snprintf(log, sizeof(log), "%s/kmnt.log", work);
	if (!(bench_fs_media(r->fs) & FF_MEDIUM_BLOCK)) {
		snprintf(k->note, sizeof(k->note), "no host kernel mount: %.20s lives on raw flash "
			 "(MTD), which the host has not (--nandsim's guest reads flash)", r->fs_title);
		return;
	}
	if (geteuid() != 0) {
		snprintf(k->note, sizeof(k->note), "kernel mount needs root");
		return;
	}
	if (mkdir(mnt, 0755) && errno != EEXIST) {
		snprintf(k->note, sizeof(k->note), "%.100s: %s", mnt, strerror(errno));
		return;
	}
	k->kernel_s = bench_kernel_read(path, mnt, log, &k->bytes);
	rmdir(mnt);
	/* the log is kept only when the note sends the user to it: else the
	 * work directory is not empty and outlives the run */
	if (k->kernel_s >= 0)
		unlink(log);
	if (k->kernel_s < 0) {
		snprintf(k->note, sizeof(k->note), "the host kernel did not mount it (see %.100s)",
			 log);
		return;
	}
	k->ran = 1;
	k->same = k->bytes == r->read_bytes;
	if (!k->same)
		snprintf(k->note, sizeof(k->note), "the kernel read %llu file bytes, ours %llu",
			 (unsigned long long)k->bytes, (unsigned long long)r->read_bytes);
}

int bench_selfcheck_result(const struct bench_corpus *c, const struct bench_result *r,
			   const char *path, const struct bench_run_opts *o,
			   struct bench_selfcheck *sc, struct ff_err *err)
{
	struct bench_layout_opts lo = { .block_size = r->block_size };
	struct bench_selfcheck_opts so = o->check;
	struct bench_layout l;
	int rc;

	so.threads = o->measure.threads;  /* the harness as it was measured */
	if (bench_layout_build(c, &lo, so.threads, &l, err))
		return -1;
	rc = bench_selfcheck(&l, &r->codec, &so, sc, err);
	bench_layout_free(&l);
	if (!rc)
		kernel_check(r, path, o->work_dir, &sc->kernel);
	return rc;
}
