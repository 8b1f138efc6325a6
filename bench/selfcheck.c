/* --self-check: the same blocks through the plainest possible loop — one
 * thread, one context, compress then decompress every block, timed as a
 * whole — to show the harness (worker split, per-pass bookkeeping) does not
 * distort the codec figures.  Both use thread CPU time.  On a busy machine
 * passes of one method differ by more than the 5% the two may differ by,
 * so a gap within the spread the passes showed is reported as noise, not
 * as a disagreement (issue 20). */
#include "bench/bench.h"
#include "compress/compress.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct direct {
	struct ff_comp_ctx *ctx;
	uint8_t *out;       /* compressed blocks back to back */
	uint32_t *size;     /* 0 = not compressed (sparse or no shrink) */
	uint8_t *scratch;
};

static double comp_pass(const struct bench_layout *l, struct direct *d, uint64_t *bytes,
			struct ff_err *err)
{
	double t0 = bench_cpu_now();
	uint64_t pos = 0;

	*bytes = 0;
	for (size_t i = 0; i < l->n_blocks; i++) {
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
	return bench_cpu_now() - t0;
}

static double decomp_pass(const struct bench_layout *l, struct direct *d, uint64_t *bytes,
			  struct ff_err *err)
{
	double t0 = bench_cpu_now();
	uint64_t pos = 0;

	*bytes = 0;
	for (size_t i = 0; i < l->n_blocks; i++) {
		if (!d->size[i])
			continue;
		if (ff_comp_decompress(d->ctx, d->out + pos, d->size[i], d->scratch,
				       l->opts.block_size, err) < 0)
			return -1;
		pos += d->size[i];
		*bytes += l->blocks[i].len;
	}
	return bench_cpu_now() - t0;
}

/* Best and worst MB/s over passes until min_time (at least 5 passes, so
 * that the spread says something about the machine's noise). */
static int speed_of(const struct bench_layout *l, struct direct *d, int decompress,
		    double min_time, struct bench_speed *sp, struct ff_err *err)
{
	double start = bench_wall_now();
	unsigned k = 0;

	memset(sp, 0, sizeof(*sp));
	do {
		uint64_t bytes;
		double s = decompress ? decomp_pass(l, d, &bytes, err) : comp_pass(l, d, &bytes, err);
		double v = s > 0 ? (double)bytes / 1e6 / s : 0;

		if (s < 0)
			return -1;
		if (v > sp->best)
			sp->best = v;
		if (v > 0 && (sp->worst == 0 || v < sp->worst))
			sp->worst = v;
		k++;
	} while (k < 5 || (bench_wall_now() - start < min_time && k < 1000));
	sp->passes = k;
	return 0;
}

static double spread(const struct bench_speed *s)
{
	return s->best > 0 && s->worst > 0 ? (s->best - s->worst) / s->best : 0;
}

enum bench_verdict bench_selfcheck_verdict(const struct bench_speed *harness,
					   const struct bench_speed *direct, double *dev,
					   double *noise)
{
	double a = spread(harness), b = spread(direct);

	*dev = direct->best > 0 ? fabs(harness->best - direct->best) / direct->best : 0;
	*noise = a > b ? a : b;
	if (*dev <= 0.05)
		return BENCH_AGREE;
	return *dev <= 0.05 + *noise ? BENCH_NOISE : BENCH_DIFFERS;
}

int bench_selfcheck(const struct bench_layout *l, const struct bench_codec *bc,
		    const struct bench_result *res, double min_time,
		    struct bench_selfcheck *sc, struct ff_err *err)
{
	struct ff_comp *comp = bench_codec_open(bc, l->opts.block_size, err);
	struct direct d = { 0 };
	struct bench_speed cd = { 0 }, dd = { 0 };
	int rc = -1;

	if (!comp)
		return -1;
	d.ctx = ff_comp_ctx_new(comp, err);
	d.out = malloc(l->bytes + 1);
	d.size = malloc((l->n_blocks + 1) * sizeof(*d.size));
	d.scratch = malloc(l->opts.block_size);
	if (d.ctx && (!d.out || !d.size || !d.scratch))
		ff_err_set(err, ENOMEM, "bench: out of memory");
	else if (d.ctx) {
		rc = speed_of(l, &d, 0, min_time, &cd, err) || speed_of(l, &d, 1, min_time, &dd, err)
			     ? -1 : 0;
	}
	sc->comp_direct = cd.best;
	sc->decomp_direct = dd.best;
	sc->comp_harness = res->comp.best;
	sc->decomp_harness = res->decomp.best;
	sc->comp_verdict = bench_selfcheck_verdict(&res->comp, &cd, &sc->comp_dev, &sc->comp_noise);
	sc->decomp_verdict = bench_selfcheck_verdict(&res->decomp, &dd, &sc->decomp_dev,
						     &sc->decomp_noise);
	ff_comp_ctx_free(d.ctx);
	free(d.out);
	free(d.size);
	free(d.scratch);
	ff_comp_free(comp);
	return rc ? ff_err_prefix(err, "self-check %s", bc->label) : 0;
}
