/* The flash read model and what is built on it: t = r/B + 1/D, effective
 * speed, break-even bandwidths, flash-speed parsing, recommendations. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/bench.h"

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
	n = bench_codec_defaults(d, 32);
	assert_true(n >= 14);
	/* libdeflate's levels beside zlib's 9 */
	assert_string_equal(d[0].label, "gzip-6");
	assert_string_equal(d[1].opts, "level=9");
	assert_string_equal(d[3].label, "gzip-12");
	assert_string_equal(d[4].label, "gzip-zlib9");
	assert_string_equal(d[4].opts, "zlib:level=9");
	assert_string_equal(d[n - 1].label, "zstd-19");
}

/* The self-check's verdict: a gap within the passes' own spread is noise
 * (issue 20: a healthy build printed DIFFERS on a busy machine), a gap
 * beyond it a disagreement. */
static void selfcheck_verdict(void **state)
{
	struct bench_speed h = {.best = 100, .worst = 70}, d = {.best = 120, .worst = 110};
	double dev, noise;

	(void)state;
	/* 20% apart, but the harness's passes spread by 30%: noise */
	assert_int_equal(bench_selfcheck_verdict(&h, &d, &dev, &noise), BENCH_NOISE);
	assert_true(dev > 0.16 && dev < 0.17);
	assert_true(noise > 0.29 && noise < 0.31);
	/* 20% apart with tight passes: a real difference */
	h.worst = 99;
	d.worst = 119;
	assert_int_equal(bench_selfcheck_verdict(&h, &d, &dev, &noise), BENCH_DIFFERS);
	/* within 5%: agreement whatever the spread */
	h.best = 118;
	assert_int_equal(bench_selfcheck_verdict(&h, &d, &dev, &noise), BENCH_AGREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(model_time),     cmocka_unit_test(break_even),
		cmocka_unit_test(flash_parse),    cmocka_unit_test(recommendations),
		cmocka_unit_test(codec_parse),    cmocka_unit_test(selfcheck_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
