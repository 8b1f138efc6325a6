/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Recommendations and break-even bandwidths from the measured results and
 * the flash model. */
#include "bench/bench.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *bench_goal_name(int goal)
{
	static const char *const names[] = { "smallest", "fastest", "weighted" };

	return goal >= 0 && goal < BENCH_NGOALS ? names[goal] : "?";
}

static double read_time(const struct bench_result *r, const struct bench_analysis *a)
{
	return bench_model_time(r->ratio, a->target_mbps, r->decomp_target);
}

static size_t pick_smallest(const struct bench_result *res, size_t n)
{
	size_t best = 0;

	for (size_t i = 1; i < n; i++)
		if (res[i].image_size < res[best].image_size ||
		    (res[i].image_size == res[best].image_size &&
		     res[i].decomp.best > res[best].decomp.best))
			best = i;
	return best;
}

static size_t pick_fastest(const struct bench_result *res, size_t n,
			   const struct bench_analysis *a)
{
	size_t best = 0;

	for (size_t i = 1; i < n; i++)
		if (read_time(&res[i], a) < read_time(&res[best], a))
			best = i;
	return best;
}

/* Score = w × size/smallest + (1 - w) × time/fastest: 1.0 is ideal. */
static double weighted_score(const struct bench_result *r, const struct bench_analysis *a,
			     double min_size, double min_time)
{
	return a->weight * (double)r->image_size / min_size +
	       (1 - a->weight) * read_time(r, a) / min_time;
}

static size_t pick_weighted(const struct bench_result *res, size_t n,
			    const struct bench_analysis *a, size_t smallest, size_t fastest)
{
	double ms = (double)res[smallest].image_size, mt = read_time(&res[fastest], a);
	size_t best = 0;

	if (ms <= 0 || !(mt > 0))
		return smallest;
	for (size_t i = 1; i < n; i++)
		if (weighted_score(&res[i], a, ms, mt) < weighted_score(&res[best], a, ms, mt))
			best = i;
	return best;
}

/* The read time with the slowest decompression pass: what the fastest
 * setting may really take, the measurement's noise included. */
static double read_time_worst(const struct bench_result *r, const struct bench_analysis *a)
{
	double d = r->decomp.worst > 0 ? r->decomp.worst * a->cpu_scale : r->decomp_target;

	return bench_model_time(r->ratio, a->target_mbps, d);
}

/* The settings whose best read is no slower than the fastest one's worst
 * pass: within the noise they tie with it, and the report says so
 * instead of naming a winner the next run may not repeat. */
static void append_ties(const struct bench_result *res, size_t n,
			const struct bench_analysis *a, struct bench_reco *rc)
{
	double limit = read_time_worst(&res[rc->index], a);
	size_t len = strlen(rc->why), ties = 0;

	for (size_t i = 0; i < n && len + 48 < sizeof(rc->why); i++) {
		if (i == rc->index || read_time(&res[i], a) > limit)
			continue;
		len += (size_t)snprintf(rc->why + len, sizeof(rc->why) - len, "%s%s %uK",
					ties++ ? ", " : " Within the measurement noise it ties "
					"with ", res[i].codec.label, res[i].block_size >> 10);
	}
	if (ties && len + 2 < sizeof(rc->why))
		snprintf(rc->why + len, sizeof(rc->why) - len, ".");
}

static void explain(const struct bench_result *res, const struct bench_analysis *a,
		    struct bench_reco *rc, size_t smallest, size_t fastest)
{
	const struct bench_result *r = &res[rc->index];
	double speed = 1.0 / read_time(r, a);

	if (rc->goal == BENCH_GOAL_SMALLEST)
		snprintf(rc->why, sizeof(rc->why),
			 "%s with a %u KiB %s gives the smallest image (%.1f%% of the tree) and "
			 "still reads at %.1f MB/s from %.3g MB/s flash.",
			 r->codec.label, r->block_size >> 10, r->block_name, r->ratio * 100, speed,
			 a->target_mbps);
	else if (rc->goal == BENCH_GOAL_FASTEST)
		snprintf(rc->why, sizeof(rc->why),
			 "At %.3g MB/s flash, %s with a %u KiB %s reads fastest (%.1f MB/s "
			 "effective: %.0f%% of the time is flash, the rest decompression at "
			 "%.0f MB/s), %.1f%% of the tree in size.",
			 a->target_mbps, r->codec.label, r->block_size >> 10, r->block_name, speed,
			 100 * (r->ratio / a->target_mbps) * speed, r->decomp_target,
			 r->ratio * 100);
	else
		snprintf(rc->why, sizeof(rc->why),
			 "Weighing size %.0f%% and read time %.0f%%, %s with a %u KiB %s is "
			 "within %.0f%% of the smallest image and %.0f%% of the fastest read.",
			 a->weight * 100, (1 - a->weight) * 100, r->codec.label,
			 r->block_size >> 10, r->block_name,
			 100 * ((double)r->image_size / (double)res[smallest].image_size - 1),
			 100 * (read_time(r, a) / read_time(&res[fastest], a) - 1));
}

static int cmp_ratio(const void *x, const void *y, void *ctx)
{
	const struct bench_result *res = ctx;
	const struct bench_result *a = &res[*(const size_t *)x], *b = &res[*(const size_t *)y];

	if (a->image_size != b->image_size)
		return a->image_size < b->image_size ? -1 : 1;
	return a->decomp_target > b->decomp_target ? -1 : a->decomp_target < b->decomp_target;
}

/* Walking from the smallest image up, keep each result that decompresses
 * faster than everything smaller: the Pareto frontier.  Neighbours on it
 * swap places at their break-even bandwidth. */
static int frontier_break_even(const struct bench_result *res, size_t n,
			       struct bench_analysis *a, struct ff_err *err)
{
	size_t *ord = malloc((n + 1) * sizeof(*ord)), prev = 0;
	int have = 0;

	a->be = calloc(n + 1, sizeof(*a->be));
	if (!ord || !a->be) {
		free(ord);
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), cmp_ratio, (void *)res);
	for (size_t k = 0; k < n; k++) {
		const struct bench_result *r = &res[ord[k]];

		if (have && r->decomp_target <= res[prev].decomp_target)
			continue;
		if (have) {
			double b = bench_model_break_even(res[prev].ratio, res[prev].decomp_target,
							  r->ratio, r->decomp_target);

			if (b > 0)
				a->be[a->n_be++] = (struct bench_break_even){ prev, ord[k], b };
		}
		prev = ord[k];
		have = 1;
	}
	free(ord);
	return 0;
}

int bench_analyse(struct bench_result *res, size_t n, struct bench_analysis *a,
		  struct ff_err *err)
{
	size_t smallest, fastest;

	a->be = NULL;
	a->n_be = 0;
	if (!n)
		return ff_err_set(err, EINVAL, "bench: no results to analyse");
	for (size_t i = 0; i < n; i++)
		res[i].decomp_target = res[i].decomp.best * a->cpu_scale;
	smallest = pick_smallest(res, n);
	fastest = pick_fastest(res, n, a);
	a->reco[BENCH_GOAL_SMALLEST] = (struct bench_reco){ BENCH_GOAL_SMALLEST, smallest, "" };
	a->reco[BENCH_GOAL_FASTEST] = (struct bench_reco){ BENCH_GOAL_FASTEST, fastest, "" };
	a->reco[BENCH_GOAL_WEIGHTED] = (struct bench_reco){
		BENCH_GOAL_WEIGHTED, pick_weighted(res, n, a, smallest, fastest), "" };
	for (int g = 0; g < BENCH_NGOALS; g++)
		explain(res, a, &a->reco[g], smallest, fastest);
	append_ties(res, n, a, &a->reco[BENCH_GOAL_FASTEST]);
	return frontier_break_even(res, n, a, err);
}

void bench_analysis_free(struct bench_analysis *a)
{
	free(a->be);
	a->be = NULL;
	a->n_be = 0;
}
