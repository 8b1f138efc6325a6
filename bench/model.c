/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The flash read model.  Reading one uncompressed MB of the tree moves
 * r MB over the flash bus (r = image size / tree size) and decompresses
 * one MB: t = r/B + 1/D seconds, B the flash read bandwidth and D the
 * target's decompression speed, both in MB/s.  The two terms are added
 * because SquashFS reads a block and then decompresses it; overlap would
 * only make every codec faster by the smaller term. */
#include "bench/bench.h"

#include <math.h>

double bench_model_time(double r, double flash_mbps, double decomp_mbps)
{
	if (flash_mbps <= 0 || decomp_mbps <= 0)
		return INFINITY;
	return r / flash_mbps + 1.0 / decomp_mbps;
}

double bench_model_speed(double r, double flash_mbps, double decomp_mbps)
{
	double t = bench_model_time(r, flash_mbps, decomp_mbps);

	return isinf(t) || t <= 0 ? 0 : 1.0 / t;
}

/* r1/B + 1/d1 = r2/B + 1/d2  =>  B = (r1 - r2) / (1/d2 - 1/d1).  Below B
 * the smaller image wins (the flash is the bottleneck), above it the
 * faster decompressor. */
double bench_model_break_even(double r1, double d1, double r2, double d2)
{
	double dr, dinv, b;

	if (d1 <= 0 || d2 <= 0)
		return 0;
	dr = r1 - r2;
	dinv = 1.0 / d2 - 1.0 / d1;
	if (dr == 0 || dinv == 0)
		return 0;
	b = dr / dinv;
	return b > 0 && isfinite(b) ? b : 0;
}
