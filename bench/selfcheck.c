/* --self-check: the same blocks through the plainest possible loop — one
 * thread, one context, compress then decompress every block, timed as a
 * whole — to show the harness (worker split, per-pass bookkeeping) does not
 * distort the codec figures.  Both use thread CPU time. */
#include "bench/bench.h"
#include "compress/compress.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

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

/* Best MB/s over passes until min_time (at least 3 passes). */
static double best_of(const struct bench_layout *l, struct direct *d, int decompress,
		      double min_time, struct ff_err *err)
{
	double start = bench_wall_now(), best = 0;
	unsigned k = 0;

	do {
		uint64_t bytes;
		double s = decompress ? decomp_pass(l, d, &bytes, err) : comp_pass(l, d, &bytes, err);

		if (s < 0)
			return -1;
		if (s > 0 && (double)bytes / 1e6 / s > best)
			best = (double)bytes / 1e6 / s;
		k++;
	} while (k < 3 || (bench_wall_now() - start < min_time && k < 1000));
	return best;
}

static double deviation(double harness, double direct)
{
	return direct > 0 ? fabs(harness - direct) / direct : 0;
}

int bench_selfcheck(const struct bench_layout *l, const struct bench_codec *bc,
		    const struct bench_result *res, double min_time,
		    struct bench_selfcheck *sc, struct ff_err *err)
{
	struct ff_comp *comp = bench_codec_open(bc, l->opts.block_size, err);
	struct direct d = { 0 };
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
		sc->comp_direct = best_of(l, &d, 0, min_time, err);
		sc->decomp_direct = sc->comp_direct < 0 ? -1 : best_of(l, &d, 1, min_time, err);
		rc = sc->decomp_direct < 0 ? -1 : 0;
	}
	sc->comp_harness = res->comp.best;
	sc->decomp_harness = res->decomp.best;
	sc->comp_dev = deviation(sc->comp_harness, sc->comp_direct);
	sc->decomp_dev = deviation(sc->decomp_harness, sc->decomp_direct);
	ff_comp_ctx_free(d.ctx);
	free(d.out);
	free(d.size);
	free(d.scratch);
	ff_comp_free(comp);
	return rc ? ff_err_prefix(err, "self-check %s", bc->label) : 0;
}
