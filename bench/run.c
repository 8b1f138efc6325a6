/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The run loop: for every block size one layout, for every codec one
 * measurement (and the self-check when asked).  A codec or option this
 * build cannot use is reported through warn and skipped, so one missing
 * backend does not lose the rest of a long run. */
#include "bench/bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int run_one(const struct bench_corpus *c, const struct bench_layout *l,
		   const struct bench_run_opts *o, size_t k, struct bench_run *out)
{
	struct ff_err e = { 0 };
	struct bench_result *r = &out->res[out->n];
	struct bench_selfcheck_opts so = o->check;

	so.threads = o->measure.threads;  /* the harness as it was measured */
	if (bench_measure(c, l, &o->codecs[k], &o->measure, r, &e) ||
	    (o->self_check && bench_selfcheck(l, &o->codecs[k], &so, &out->sc[out->n], &e))) {
		out->failed++;
		ff_warnf(o->warn, o->ctx, FF_WARN_FAILED, NULL, "%s", e.msg);
		return 0;
	}
	out->n++;
	return 0;
}

static int run_block_size(const struct bench_corpus *c, const struct bench_run_opts *o,
			  uint32_t bs, struct bench_run *out, uint64_t total, struct ff_err *err)
{
	struct bench_layout_opts lo = o->layout;
	struct bench_layout l;

	lo.block_size = bs;
	if (bench_layout_build(c, &lo, o->measure.threads, &l, err))
		return -1;
	for (size_t k = 0; k < o->n_codecs; k++) {
		run_one(c, &l, o, k, out);
		if (o->progress)
			o->progress(o->ctx, c->unique_bytes, total);
	}
	bench_layout_free(&l);
	return 0;
}

int bench_run(const struct bench_corpus *c, const struct bench_run_opts *o,
	      struct bench_run *out, struct ff_err *err)
{
	size_t cap = o->n_codecs * o->n_block_sizes + 1;
	uint64_t total = c->unique_bytes * (cap - 1);

	memset(out, 0, sizeof(*out));
	out->res = calloc(cap, sizeof(*out->res));
	out->sc = calloc(cap, sizeof(*out->sc));
	if (!out->res || !out->sc) {
		bench_run_free(out);
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	}
	for (size_t b = 0; b < o->n_block_sizes; b++) {
		if (run_block_size(c, o, o->block_sizes[b], out, total, err)) {
			bench_run_free(out);
			return -1;
		}
	}
	if (!out->n) {
		bench_run_free(out);
		return ff_err_set(err, EINVAL, "no codec setting could be measured");
	}
	return 0;
}

void bench_run_free(struct bench_run *r)
{
	free(r->res);
	free(r->sc);
	memset(r, 0, sizeof(*r));
}
