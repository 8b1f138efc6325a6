/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The flash read model and what is built on it: t = r/B + 1/D, effective
 * speed, break-even bandwidths, flash-speed parsing, recommendations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>

#include "bench/bench.h"
#include "tree/build.h"

static void model_time(void **state)
{
	(void)state;
	/* r = 0.5 at 25 MB/s: 0.02 s of flash; D = 100 MB/s: 0.01 s */
	assert_float_equal(bench_model_time(0.5, 25, 100), 0.03, 1e-12);
	assert_float_equal(bench_model_speed(0.5, 25, 100), 1 / 0.03, 1e-9);
	/* uncompressed (r = 1) at infinite CPU speed tends to the flash speed */
	assert_float_equal(bench_model_speed(1.0, 8, 1e12), 8, 1e-6);
	assert_true(isinf(bench_model_time(0.5, 0, 100)));
	assert_float_equal(bench_model_speed(0.5, 25, 0), 0, 0);
}

static void break_even(void **state)
{
	double b;

	(void)state;
	/* A: r 0.4, D 50; B: r 0.5, D 500.  0.1/B = 1/50 - 1/500 = 0.018 */
	b = bench_model_break_even(0.4, 50, 0.5, 500);
	assert_float_equal(b, 0.1 / 0.018, 1e-9);
	/* at that bandwidth both take the same time */
	assert_float_equal(bench_model_time(0.4, b, 50), bench_model_time(0.5, b, 500), 1e-12);
	/* below it the smaller image is faster, above it the faster codec */
	assert_true(bench_model_time(0.4, b / 2, 50) < bench_model_time(0.5, b / 2, 500));
	assert_true(bench_model_time(0.4, b * 2, 50) > bench_model_time(0.5, b * 2, 500));
	/* one better in both: no crossing */
	assert_float_equal(bench_model_break_even(0.4, 500, 0.5, 50), 0, 0);
	assert_float_equal(bench_model_break_even(0.4, 50, 0.4, 50), 0, 0);
}

static void flash_parse(void **state)
{
	struct bench_flash f[8];
	struct ff_err e = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(bench_flash_parse("0.5,2MB/s, 500KB/s,slc-nand,1GB/s,8MiB/s", f, 8, &n,
					   &e), 0);
	assert_int_equal(n, 6);
	assert_float_equal(f[0].mbps, 0.5, 1e-12);
	assert_float_equal(f[1].mbps, 2, 1e-12);
	assert_float_equal(f[2].mbps, 0.5, 1e-12);
	assert_string_equal(f[3].name, "slc-nand");
	assert_float_equal(f[3].mbps, 25, 1e-12);
	assert_float_equal(f[4].mbps, 1000, 1e-9);
	assert_float_equal(f[5].mbps, 8 * 1.048576, 1e-9);
	assert_int_equal(bench_flash_parse("fast", f, 8, &n, &e), -1);
	assert_non_null(strstr(e.msg, "fast"));
	assert_int_equal(bench_flash_parse("-3", f, 8, &n, &e), -1);
	assert_int_equal(bench_flash_parse("3furlongs", f, 8, &n, &e), -1);
	assert_int_equal(bench_flash_parse(",", f, 8, &n, &e), -1);
	assert_int_equal(bench_flash_parse("1,2,3", f, 2, &n, &e), -1);
	/* a preset names its storage: which file systems a run for it builds */
	assert_int_equal(bench_flash_parse("spi-nor,slc-nand,emmc,20", f, 8, &n, &e), 0);
	assert_int_equal(f[0].medium, FF_MEDIUM_NOR);
	assert_int_equal(f[1].medium, FF_MEDIUM_NAND);
	assert_int_equal(f[2].medium, FF_MEDIUM_BLOCK);
	assert_int_equal(f[3].medium, 0);
	assert_string_equal(bench_medium_name(FF_MEDIUM_NOR), "nor");
	assert_string_equal(bench_medium_name(0), "block");
}

/* A builder with fixed codec levels: its own setting, with no options or
 * exactly its own; anything else ENOTSUP, naming both. */
static void fixed_codecs(void **state)
{
	static const char *const fixed[] = { "gzip:zlib:level=3@zlib-3", "none", NULL };
	static const char *const codecs[] = { "gzip", "none", NULL };
	struct ff_build_ops b = { .codecs = codecs, .fixed = fixed };
	struct ff_build_opts o;
	struct ff_err e = { 0 };

	(void)state;
	ff_build_opts_init(&o);
	assert_string_equal(ff_build_fixed_find(&b, "gzip"), fixed[0]);
	assert_string_equal(ff_build_fixed_find(&b, "none"), "none");
	assert_null(ff_build_fixed_find(&b, "gzi"));
	assert_null(ff_build_fixed_find(&b, "zstd"));
	o.codec = "gzip";
	assert_int_equal(ff_build_fixed_check(&b, &o, "X", &e), 0);
	o.codec_opts = "zlib:level=3";
	assert_int_equal(ff_build_fixed_check(&b, &o, "X", &e), 0);
	o.codec_opts = "level=9";
	assert_int_equal(ff_build_fixed_check(&b, &o, "X", &e), -1);
	assert_int_equal(e.code, ENOTSUP);
	assert_non_null(strstr(e.msg, "zlib:level=3"));
	assert_non_null(strstr(e.msg, "level=9"));
	o.codec = "lz4";
	o.codec_opts = NULL;
	assert_int_equal(ff_build_fixed_check(&b, &o, "X", &e), -1);
	assert_non_null(strstr(e.msg, "lz4"));
	b.fixed = NULL;  /* any setting */
	assert_int_equal(ff_build_fixed_check(&b, &o, "X", &e), 0);
}

static struct bench_result mk(const char *label, uint64_t size, double decomp)
{
	struct bench_result r;

	memset(&r, 0, sizeof(r));
	snprintf(r.codec.label, sizeof(r.codec.label), "%s", label);
	r.block_size = 131072;
	r.input_bytes = 1000000;
	r.image_size = size;
	r.ratio = (double)size / 1e6;
	r.decomp.best = decomp;
	return r;
}

static void recommendations(void **state)
{
	struct bench_result res[3] = {
		mk("small-slow", 300000, 20),   /* xz-like */
		mk("mid", 400000, 400),         /* zstd-like */
		mk("big-fast", 600000, 2000),   /* lz4-like */
	};
	struct bench_analysis a = { .cpu_scale = 1, .target_mbps = 25, .weight = 0.5 };
	struct ff_err e = { 0 };

	(void)state;
	assert_int_equal(bench_analyse(res, 3, &a, &e), 0);
	assert_int_equal(a.reco[BENCH_GOAL_SMALLEST].index, 0);
	/* at 25 MB/s: 0.3/25+1/20 = 0.062; 0.4/25+1/400 = 0.0185; 0.6/25+1/2000 = 0.0245 */
	assert_int_equal(a.reco[BENCH_GOAL_FASTEST].index, 1);
	assert_int_equal(a.reco[BENCH_GOAL_WEIGHTED].index, 1);
	assert_non_null(strstr(a.reco[BENCH_GOAL_FASTEST].why, "mid"));
	/* the frontier is all three; two crossings */
	assert_int_equal(a.n_be, 2);
	assert_float_equal(a.be[0].flash_mbps, bench_model_break_even(0.3, 20, 0.4, 400), 1e-9);
	bench_analysis_free(&a);

	/* a 10x slower target CPU moves "fastest" toward the cheap decoder */
	a.cpu_scale = 0.1;
	a.target_mbps = 150;
	assert_int_equal(bench_analyse(res, 3, &a, &e), 0);
	assert_float_equal(res[1].decomp_target, 40, 1e-9);
	assert_int_equal(a.reco[BENCH_GOAL_FASTEST].index, 2);
	bench_analysis_free(&a);

	/* weight 1 = size only */
	a.cpu_scale = 1;
	a.weight = 1;
	assert_int_equal(bench_analyse(res, 3, &a, &e), 0);
	assert_int_equal(a.reco[BENCH_GOAL_WEIGHTED].index, 0);
	assert_null(strstr(a.reco[BENCH_GOAL_FASTEST].why, "ties"));
	bench_analysis_free(&a);

	/* within the noise: mid's slowest pass (100 MB/s) reads 0.4/25 + 1/100
	 * = 0.026 s, slower than big-fast's best 0.0245 s: a tie, said */
	res[1].decomp.worst = 100;
	a.target_mbps = 25;
	assert_int_equal(bench_analyse(res, 3, &a, &e), 0);
	assert_int_equal(a.reco[BENCH_GOAL_FASTEST].index, 1);
	assert_non_null(strstr(a.reco[BENCH_GOAL_FASTEST].why,
			       "Within the measurement noise it ties with big-fast 128K."));
	bench_analysis_free(&a);
	/* a steady mid (worst 390 MB/s: 0.01856 s) wins alone */
	res[1].decomp.worst = 390;
	assert_int_equal(bench_analyse(res, 3, &a, &e), 0);
	assert_null(strstr(a.reco[BENCH_GOAL_FASTEST].why, "ties"));
	bench_analysis_free(&a);
}

static void codec_parse(void **state)
{
	struct bench_codec c, d[32];
	struct ff_err e = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(bench_codec_parse("zstd:level=19", &c, &e), 0);
	assert_string_equal(c.name, "zstd");
	assert_string_equal(c.opts, "level=19");
	assert_string_equal(c.label, "zstd-19");
	assert_int_equal(bench_codec_parse("xz:bcj=x86,arm:dict-size=50%@xzb", &c, &e), 0);
	assert_string_equal(c.opts, "bcj=x86,arm:dict-size=50%");
	assert_string_equal(c.label, "xzb");
	assert_int_equal(bench_codec_parse(":level=1", &c, &e), -1);
	assert_int_equal(bench_codec_parse("gzip:zlib:level=9", &c, &e), 0);
	assert_string_equal(c.label, "gzip-zlib-9");
	n = bench_codec_defaults(d, 32, "arm");
	assert_true(n >= 14);
	/* libdeflate's levels beside zlib's 9 */
	assert_string_equal(d[0].label, "gzip-6");
	assert_string_equal(d[1].opts, "level=9");
	assert_string_equal(d[3].label, "gzip-12");
	assert_string_equal(d[4].label, "gzip-zlib9");
	assert_string_equal(d[4].opts, "zlib:level=9");
	assert_string_equal(d[n - 1].label, "zstd-19");
	assert_string_equal(d[8].label, "xz+bcj");
	assert_string_equal(d[8].opts, "bcj=arm");
	assert_int_equal(bench_codec_defaults(d, 32, NULL), n - 1); /* no xz+bcj */
}

/* The median's distribution-free interval: order statistics v(k) and
 * v(n+1-k), k the largest with 1 - 2 P(Binomial(n, 1/2) < k) >= 95%.
 * The binomial sums are worked by hand: n = 15, P(B <= 3) = 576/32768
 * (k = 4; P(B <= 4) = 1941/32768 misses too often); n = 12,
 * P(B <= 2) = 79/4096 (k = 3); n = 6, P(B = 0) = 1/64 (k = 1); n = 5
 * has no 95% interval, 1 - 2/32 = 93.75% at most. */
static void median_interval(void **state)
{
	double v[15];
	struct bench_interval ci;

	(void)state;
	for (unsigned i = 0; i < 15; i++)
		v[i] = (double)((i * 7) % 15) + 1; /* 1..15, shuffled */
	assert_int_equal(bench_median_interval(v, 15, 0.95, &ci), 0);
	assert_true(ci.median == 8 && ci.lo == 4 && ci.hi == 12);
	assert_true(fabs(ci.coverage - (1 - 2 * 576.0 / 32768)) < 1e-12);
	assert_true(v[0] == 1 && v[14] == 15); /* sorted in place */
	for (unsigned i = 0; i < 12; i++)
		v[i] = 12 - (double)i;
	assert_int_equal(bench_median_interval(v, 12, 0.95, &ci), 0);
	assert_true(ci.median == 6.5 && ci.lo == 3 && ci.hi == 10);
	assert_true(fabs(ci.coverage - (1 - 2 * 79.0 / 4096)) < 1e-12);
	assert_int_equal(bench_median_interval(v, 6, 0.95, &ci), 0);
	assert_true(ci.lo == 1 && ci.hi == 6);
	assert_true(fabs(ci.coverage - (1 - 2.0 / 64)) < 1e-12);
	assert_int_equal(bench_median_interval(v, 5, 0.95, &ci), -1);
	assert_true(ci.lo == 1 && ci.hi == 5 && fabs(ci.coverage - 0.9375) < 1e-12);
	assert_int_equal(bench_median_interval(v, 0, 0.95, &ci), -1);
}

/* The verdict looks at the whole interval (issue 20: a healthy build
 * printed DIFFERS on a busy machine): inside the band agrees, wholly
 * beyond the factor differs, on either side, and anything between is
 * inconclusive -- also a tight interval like the 0.63..0.76 CI's shared
 * machine gave a healthy build. */
static void selfcheck_verdict(void **state)
{
	struct bench_interval in = {.lo = 0.93, .median = 1.0, .hi = 1.08},
			      edge = {.lo = 0.9, .median = 1.0, .hi = 1.1},
			      across = {.lo = 0.85, .median = 0.95, .hi = 1.02},
			      wide = {.lo = 0.7, .median = 1.0, .hi = 1.3},
			      slow = {.lo = 0.45, .median = 0.5, .hi = 0.55},
			      fast = {.lo = 1.6, .median = 2.0, .hi = 2.1},
			      ci_seen = {.lo = 0.627, .median = 0.712, .hi = 0.764},
			      short_of = {.lo = 1.12, .median = 1.3, .hi = 1.45};

	(void)state;
	assert_int_equal(bench_selfcheck_verdict(&in, 0.1, 1.5), BENCH_AGREE);
	assert_int_equal(bench_selfcheck_verdict(&edge, 0.1, 1.5), BENCH_AGREE);
	assert_int_equal(bench_selfcheck_verdict(&across, 0.1, 1.5), BENCH_INCONCLUSIVE);
	assert_int_equal(bench_selfcheck_verdict(&wide, 0.1, 1.5), BENCH_INCONCLUSIVE);
	assert_int_equal(bench_selfcheck_verdict(&slow, 0.1, 1.5), BENCH_DIFFERS);
	assert_int_equal(bench_selfcheck_verdict(&fast, 0.1, 1.5), BENCH_DIFFERS);
	assert_int_equal(bench_selfcheck_verdict(&ci_seen, 0.1, 1.5), BENCH_INCONCLUSIVE);
	assert_int_equal(bench_selfcheck_verdict(&short_of, 0.1, 1.5), BENCH_INCONCLUSIVE);
	assert_string_equal(bench_verdict_name(BENCH_DIFFERS), "DIFFERS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_time),     cmocka_unit_test(break_even),
		cmocka_unit_test(flash_parse),    cmocka_unit_test(recommendations),
		cmocka_unit_test(codec_parse),    cmocka_unit_test(selfcheck_verdict),
		cmocka_unit_test(median_interval), cmocka_unit_test(fixed_codecs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
