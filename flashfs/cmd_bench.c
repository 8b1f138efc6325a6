/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs bench: build real images of a corpus for every file system the
 * registry can build (file system × block size × codec × layout variant),
 * read them back, model flash reads, recommend, and report (table, CSV,
 * JSON, plot).  It names no format: bench/ asks the registry.  This file is the
 * thin main: options, the run loop, printing and exit codes. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench/bench.h"
#include "common/outfile.h"
#include "common/progress.h"
#include "common/size.h"
#include "flashfs/commands.h"

#define MAX_CODECS 32
#define MAX_BLOCK_SIZES 16
#define MAX_FLASH 32
#define MAX_FS 16
#define MAX_FLAGS 24

static void usage(FILE *out)
{
	fprintf(out,
		"usage: flashfs bench [OPTIONS] SOURCE...\n"
		"Build real images of SOURCE (directories, tarballs or images flashfs reads)\n"
		"with every file system that can build (see flashfs formats), codec and\n"
		"block or pcluster size, read them back (sequentially, in random 4 KiB reads\n"
		"and with a stat walk) and recommend one for a flash read speed.\n\n"
		"      --fs LIST          only these file systems (names from flashfs formats)\n"
		"  -O KEY[=VALUE]         a format option, given to the file systems that take\n"
		"                         it (repeatable; flashfs formats --json lists them);\n"
		"                         the layout variants a format marks are tried with\n"
		"                         and without anyway\n"
		"  -c, --codec NAME[:k=v[:k=v]][@LABEL]  add a codec setting (repeatable);\n"
		"                         default: gzip-6 gzip-9 gzip-10 gzip-12 (libdeflate)\n"
		"                         gzip-zlib9 lzo1x_999 lzo1x_1 xz xz+bcj lz4 lz4hc\n"
		"                         zstd-3 zstd-15 zstd-19\n"
		"      --codecs LIST      comma-separated codec settings\n"
		"  -b, --block-sizes LIST block (or pcluster) sizes, 4K..1M (default: each file\n"
		"                         system's own list)\n"
		"  -j, --jobs N           worker threads (default: online CPUs)\n"
		"      --min-time SEC     minimum time per measurement (default 0.5)\n"
		"      --repeats N        minimum decompression passes (default 3)\n"
		"      --quick            128K blocks, 0.05 s, 2 passes, one usual setting per\n"
		"                         codec family (without -c), each format's plain layout\n"
		"                         (no variants): a run of seconds\n"
		"  -f, --flash-speed LIST flash read bandwidths and presets\n"
		"                         (default 0.5,2,8,16,32,spi-nor,slc-nand,emmc)\n"
		"  -t, --target-flash S   the B of \"fastest boot read\" (default slc-nand)\n"
		"      --cpu-scale X      target CPU speed relative to this host (default 1;\n"
		"                         0.1 = ten times slower)\n"
		"  -w, --weight W         weight of image size in the weighted goal, 0..1\n"
		"                         (default 0.5; the rest is read time)\n"
		"      --no-fragments, --always-fragments, --no-dedup, --no-sparse\n"
		"                         the same as -O no-fragments ...\n"
		"      --csv FILE         write CSV (- for stdout)\n"
		"      --json FILE        write JSON, schema flashfs-bench/2 (-: stdout)\n"
		"      --plot FILE        write a plot (.svg or .png) with gnuplot (.gp: the\n"
		"                         gnuplot script)\n"
		"      --wide             every table column (default: the terminal's width,\n"
		"                         or 100 columns when not a terminal)\n"
		"      --self-check       compare with a plain library loop in interleaved pairs\n"
		"                         of passes: agree, inconclusive or DIFFERS by the 95%%\n"
		"                         interval of the median speed ratio against +-10%%;\n"
		"                         and loop-mount every image in the host kernel (root)\n"
		"      --e2e              keep the recommended images and time full-tree reads\n"
		"                         (flashfs mount; loop mount as root)\n"
		"      --nandsim          also read them from a nandsim chip in a qemu guest\n"
		"      --work-dir DIR     build the images here and keep them (default: a\n"
		"                         temporary directory, removed)\n"
		"      --no-progress, -q/--quiet, --color, --no-color\n\n"
		"Flash presets:\n%s\n"
		"Exit status: 0 ok, 1 some settings failed or the self-check said DIFFERS,\n"
		"2 usage or fatal error.\n",
		bench_flash_presets_help());
}

enum {
	O_CODECS = 256, O_MIN_TIME, O_REPEATS, O_QUICK, O_CPU_SCALE, O_NO_FRAG, O_ALWAYS_FRAG,
	O_NO_DEDUP, O_NO_SPARSE, O_CSV, O_JSON, O_PLOT, O_SELF_CHECK, O_E2E, O_NANDSIM,
	O_WORK_DIR, O_NO_PROGRESS, O_COLOR, O_NO_COLOR, O_WIDE, O_FS,
};

static const struct option long_opts[] = {
	{ "codec", required_argument, NULL, 'c' },
	{ "codecs", required_argument, NULL, O_CODECS },
	{ "block-sizes", required_argument, NULL, 'b' },
	{ "block-size", required_argument, NULL, 'b' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "min-time", required_argument, NULL, O_MIN_TIME },
	{ "repeats", required_argument, NULL, O_REPEATS },
	{ "quick", no_argument, NULL, O_QUICK },
	{ "flash-speed", required_argument, NULL, 'f' },
	{ "target-flash", required_argument, NULL, 't' },
	{ "cpu-scale", required_argument, NULL, O_CPU_SCALE },
	{ "weight", required_argument, NULL, 'w' },
	{ "no-fragments", no_argument, NULL, O_NO_FRAG },
	{ "always-fragments", no_argument, NULL, O_ALWAYS_FRAG },
	{ "no-dedup", no_argument, NULL, O_NO_DEDUP },
	{ "no-sparse", no_argument, NULL, O_NO_SPARSE },
	{ "csv", required_argument, NULL, O_CSV },
	{ "json", required_argument, NULL, O_JSON },
	{ "plot", required_argument, NULL, O_PLOT },
	{ "self-check", no_argument, NULL, O_SELF_CHECK },
	{ "e2e", no_argument, NULL, O_E2E },
	{ "nandsim", no_argument, NULL, O_NANDSIM },
	{ "work-dir", required_argument, NULL, O_WORK_DIR },
	{ "no-progress", no_argument, NULL, O_NO_PROGRESS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "color", no_argument, NULL, O_COLOR },
	{ "no-color", no_argument, NULL, O_NO_COLOR },
	{ "wide", no_argument, NULL, O_WIDE },
	{ "fs", required_argument, NULL, O_FS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct cfg {
	struct bench_codec codecs[MAX_CODECS];
	size_t n_codecs;
	uint32_t block_sizes[MAX_BLOCK_SIZES];
	size_t n_bs;
	struct bench_flash flash[MAX_FLASH];
	size_t n_flash;
	struct bench_flash target;
	const char *fs[MAX_FS];
	size_t n_fs;
	char fs_buf[256];
	const char *flags[MAX_FLAGS];
	size_t n_flags;
	struct bench_measure_opts measure;
	double cpu_scale, weight;
	const char *csv, *json, *plot, *work_dir;
	int self_check, e2e, nandsim, quiet, progress, color, wide;
	char note[160];		/* the default set's BCJ choice, for the report */
	int quick;
	char work[4096];        /* where the images are built */
	unsigned slow_direct;   /* test hook, FLASHFS_BENCH_SLOW_DIRECT */
};

static int bad(const char *what, const char *value, const char *why)
{
	fprintf(stderr, "flashfs bench: %s '%s': %s\n", what, value, why);
	return -1;
}

static int parse_size(const char *s, uint32_t *out)
{
	uint64_t v;

	if (ff_parse_size(s, &v) < 0 || v < 4096 || v > (1ul << 20) || (v & (v - 1)))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_block_sizes(struct cfg *c, const char *list)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	c->n_bs = 0;
	for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (c->n_bs == MAX_BLOCK_SIZES)
			return bad("--block-sizes", list, "too many");
		if (parse_size(t, &c->block_sizes[c->n_bs++]))
			return bad("--block-sizes", t, "expected a power of two 4K..1M");
	}
	return c->n_bs ? 0 : bad("--block-sizes", list, "empty list");
}

static int add_codec(struct cfg *c, const char *spec)
{
	struct ff_err e = { 0 };

	if (c->n_codecs == MAX_CODECS)
		return bad("--codec", spec, "too many codec settings");
	if (bench_codec_parse(spec, &c->codecs[c->n_codecs], &e))
		return bad("--codec", spec, e.msg);
	c->n_codecs++;
	return 0;
}

static int add_codecs(struct cfg *c, const char *list)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
		if (add_codec(c, t))
			return -1;
	return 0;
}

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= lo && v <= hi))
		return bad(opt, s, "out of range or not a number");
	*out = v;
	return 0;
}

static int parse_flash(struct cfg *c, const char *opt, const char *s, int target)
{
	struct ff_err e = { 0 };
	size_t n;

	if (target ? bench_flash_parse(s, &c->target, 1, &n, &e)
		   : bench_flash_parse(s, c->flash, MAX_FLASH, &c->n_flash, &e))
		return bad(opt, s, e.msg);
	return 0;
}

static void defaults(struct cfg *c)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	c->measure.threads = cpus > 0 ? (unsigned)cpus : 1;
	c->measure.min_time = 0.5;
	c->measure.min_repeats = 3;
	c->cpu_scale = 1;
	c->weight = 0.5;
	c->progress = isatty(STDERR_FILENO);
	c->color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

static int parse_num_opt(struct cfg *c, int opt, const char *arg)
{
	double v;

	switch (opt) {
	case 'j':
		if (parse_double("--jobs", arg, 1, 32, &v))
			return -1;
		c->measure.threads = (unsigned)v;
		return 0;
	case O_MIN_TIME:
		return parse_double("--min-time", arg, 0, 3600, &c->measure.min_time);
	case O_REPEATS:
		if (parse_double("--repeats", arg, 1, 1000, &v))
			return -1;
		c->measure.min_repeats = (unsigned)v;
		return 0;
	case O_CPU_SCALE:
		return parse_double("--cpu-scale", arg, 1e-4, 1e4, &c->cpu_scale);
	case 'w':
		return parse_double("--weight", arg, 0, 1, &c->weight);
	}
	return 1;
}

static int add_flag(struct cfg *c, const char *kv)
{
	if (c->n_flags == MAX_FLAGS)
		return bad("-O", kv, "too many format options");
	c->flags[c->n_flags++] = kv;
	return 0;
}

static int parse_fs(struct cfg *c, const char *list)
{
	char *save = NULL;

	snprintf(c->fs_buf, sizeof(c->fs_buf), "%s", list);
	c->n_fs = 0;
	for (char *t = strtok_r(c->fs_buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (c->n_fs == MAX_FS)
			return bad("--fs", list, "too many");
		c->fs[c->n_fs++] = t;
	}
	return c->n_fs ? 0 : bad("--fs", list, "empty list");
}

static int parse_flag(struct cfg *c, int opt)
{
	switch (opt) {
	case O_QUICK:
		c->quick = 1;
		c->block_sizes[0] = 128u << 10;
		c->n_bs = 1;
		c->measure.min_time = 0.05;
		c->measure.min_repeats = 2;
		return 0;
	case O_NO_FRAG: return add_flag(c, "no-fragments");
	case O_ALWAYS_FRAG: return add_flag(c, "always-fragments");
	case O_NO_DEDUP: return add_flag(c, "no-dedup");
	case O_NO_SPARSE: return add_flag(c, "no-sparse");
	case O_SELF_CHECK: c->self_check = 1; return 0;
	case O_E2E: c->e2e = 1; return 0;
	case O_NANDSIM: c->nandsim = c->e2e = 1; return 0;
	case O_NO_PROGRESS: c->progress = 0; return 0;
	case 'q': c->quiet = 1; c->progress = 0; return 0;
	case O_COLOR: c->color = 1; return 0;
	case O_NO_COLOR: c->color = 0; return 0;
	case O_WIDE: c->wide = 1; return 0;
	}
	return 1;
}

/* FLASHFS_BENCH_SLOW_DIRECT=F, a test hook: the self-check's plain loop
 * runs each pass F times and counts it once, so that a test can see the
 * self-check say DIFFERS on a build that is healthy. */
static int test_hook(struct cfg *c)
{
	const char *v = getenv("FLASHFS_BENCH_SLOW_DIRECT");
	char *end;
	unsigned long f;

	if (!v || !*v)
		return 0;
	errno = 0;
	f = strtoul(v, &end, 10);
	if (errno || *end || f < 1 || f > 100)
		return bad("FLASHFS_BENCH_SLOW_DIRECT", v, "expected a whole factor 1..100");
	c->slow_direct = (unsigned)f;
	return 0;
}

static int parse_one(struct cfg *c, int opt, const char *arg)
{
	int r = parse_flag(c, opt);

	if (r <= 0)
		return r;
	r = parse_num_opt(c, opt, arg);
	if (r <= 0)
		return r;
	switch (opt) {
	case 'c': return add_codec(c, arg);
	case O_CODECS: return add_codecs(c, arg);
	case 'b': return parse_block_sizes(c, arg);
	case 'f': return parse_flash(c, "--flash-speed", arg, 0);
	case 't': return parse_flash(c, "--target-flash", arg, 1);
	case O_CSV: c->csv = arg; return 0;
	case O_JSON: c->json = arg; return 0;
	case O_PLOT: c->plot = arg; return 0;
	case O_WORK_DIR: c->work_dir = arg; return 0;
	case O_FS: return parse_fs(c, arg);
	case 'O': return add_flag(c, arg);
	}
	return -1;
}

/* Returns the index of the first SOURCE, or -1 (usage error), -2 (--help). */
static int parse_args(struct cfg *c, int argc, char **argv)
{
	int opt;

	defaults(c);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "c:b:j:f:t:w:qhO:", long_opts, NULL)) != -1) {
		if (opt == 'h')
			return -2;
		if (opt == '?' || parse_one(c, opt, optarg))
			return -1;
	}
	if (!c->n_flash && parse_flash(c, "--flash-speed", "0.5,2,8,16,32,spi-nor,slc-nand,emmc", 0))
		return -1;
	if (!c->target.mbps && parse_flash(c, "--target-flash", "slc-nand", 1))
		return -1;
	if (test_hook(c))
		return -1;

	if (optind >= argc) {
		fprintf(stderr, "flashfs bench: no SOURCE given\n");
		return -1;
	}
	return optind;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int cmp_base(const void *a, const void *b)
{
	return strcmp(base_name(*(char *const *)a), base_name(*(char *const *)b));
}

/* Several sources become directories under the root, which mkfs lists
 * sorted by name: add them in that order. */
static int load_corpus(struct bench_corpus **out, char **src, int n)
{
	struct ff_err e = { 0 };
	struct bench_corpus *c = bench_corpus_new(&e);

	qsort(src, (size_t)n, sizeof(*src), cmp_base);
	for (int i = 0; c && i < n; i++) {
		if (bench_corpus_add(c, src[i], n == 1, &e)) {
			bench_corpus_free(c);
			c = NULL;
		}
	}
	if (c && bench_corpus_finish(c, &e)) {
		bench_corpus_free(c);
		c = NULL;
	}
	if (!c) {
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
		return -1;
	}
	*out = c;
	return 0;
}

/* Without -c: the default set, its xz+bcj filter the corpus' machine.
 * Returns 1 (go on). */
static int default_codecs(struct cfg *c, const struct bench_corpus *corpus)
{
	const char *bcj;

	if (c->n_codecs)
		return 1;
	bcj = bench_corpus_bcj(corpus, c->note, sizeof(c->note));
	c->n_codecs = c->quick ? bench_codec_quick(c->codecs, MAX_CODECS, bcj)
			       : bench_codec_defaults(c->codecs, MAX_CODECS, bcj);
	return 1;
}

static void on_warn(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	(void)ctx;
	fprintf(stderr, "\nflashfs bench: skipped: %s\n", ff_warning_text(w, line, sizeof(line)));
}

static void on_progress(void *ctx, uint64_t bytes, uint64_t total)
{
	(void)total; /* set once by measure_all, with the number of runs */
	ff_progress_add(ctx, bytes, 1);
}

static int make_work_dir(const struct cfg *c, char *buf, size_t cap)
{
	if (c->work_dir) {
		snprintf(buf, cap, "%s", c->work_dir);
		if (mkdir(buf, 0755) && errno != EEXIST)
			return bad("--work-dir", buf, strerror(errno));
		return 0;
	}
	snprintf(buf, cap, "%s/flashfs-bench.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(buf) ? 0 : bad("work directory", buf, strerror(errno));
}

/* SOURCE_DATE_EPOCH: the images' time, as the builders take it. */
static int64_t image_time(void)
{
	const char *v = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long t;

	if (!v || !*v)
		return -1;
	errno = 0;
	t = strtoll(v, &end, 10);
	return errno || *end || t < 0 ? -1 : (int64_t)t;
}

static int measure_all(const struct cfg *c, const struct bench_corpus *corpus,
		       const char *work, struct bench_run *run)
{
	struct bench_run_opts o = {
		.codecs = c->codecs, .n_codecs = c->n_codecs, .block_sizes = c->block_sizes,
		.n_block_sizes = c->n_bs, .measure = c->measure,
		.fs = c->fs, .n_fs = c->n_fs, .flags = c->flags, .n_flags = c->n_flags,
		.no_variants = c->quick,
		.time = image_time(), .work_dir = work, .keep_images = c->work_dir || c->e2e,
		.warn = on_warn, .self_check = c->self_check,
		/* a tenth of --min-time per side and round: the 15 pairs of
		 * both phases take about six times --min-time, more for a codec
		 * whose one pass is longer */
		.check = { .round_time = c->measure.min_time / 10, .slow_direct = c->slow_direct },
	};
	struct ff_progress *p = ff_progress_new(STDERR_FILENO, "runs", 0);
	struct ff_err e = { 0 };
	int rc;

	if (p && c->progress) {
		size_t n = bench_run_count(corpus, &o);

		ff_progress_set_total(p, corpus->unique_bytes * n, n);
		o.progress = on_progress;
		o.ctx = p;
	}
	rc = bench_run(corpus, &o, run, &e);
	if (p && c->progress)
		ff_progress_finish(p);
	ff_progress_free(p);
	if (rc)
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
	return rc;
}

/* An existing path that is not a regular file (/dev/null, a FIFO): renaming
 * a temporary over it would replace the device, so it is written in place. */
static int is_special(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode);
}

static int write_special(const char *path, const struct bench_report *r,
			 void (*emit)(FILE *, const struct bench_report *))
{
	FILE *f = fopen(path, "w");

	if (!f)
		return bad("output", path, strerror(errno));
	emit(f, r);
	return fclose(f) ? bad("output", path, strerror(errno)) : 0;
}

/* Writes what `emit` prints to PATH atomically, or to stdout for "-". */
static int write_output(const char *path, const struct bench_report *r,
			void (*emit)(FILE *, const struct bench_report *))
{
	struct ff_outfile of;
	struct ff_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!strcmp(path, "-")) {
		emit(stdout, r);
		return 0;
	}
	if (is_special(path))
		return write_special(path, r, emit);
	m = open_memstream(&buf, &len);
	if (!m)
		return bad("output", path, "out of memory");
	emit(m, r);
	fclose(m);
	if (ff_outfile_open(&of, path, &e) || ff_outfile_write(&of, buf, len, &e) ||
	    ff_outfile_commit(&of, &e)) {
		ff_outfile_abort(&of);
		free(buf);
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
		return -1;
	}
	free(buf);
	return 0;
}

/* The table fits the terminal, or 100 columns in a file or pipe. */
static unsigned table_width(int wide)
{
	struct winsize ws;

	if (wide)
		return 0;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 100;
}

static void self_check_line(const struct bench_result *x, const char *phase,
			    const struct bench_paired *p)
{
	printf("  %-12s %5uK %-6s %9.1f %9.1f %6.3f  %6.3f..%-6.3f %4ux%-3u %s\n",
	       x->codec.label, x->block_size >> 10, phase, p->harness_mbps, p->direct_mbps,
	       p->ratio.median, p->ratio.lo, p->ratio.hi, p->rounds, p->passes_per_round,
	       bench_verdict_name(p->verdict));
}

static int self_check_report(const struct bench_report *r)
{
	int bad = 0;

	printf("\nSelf-check: the harness against a plain one-thread library loop, both on one\n"
	       "CPU by turns, in pairs of interleaved measurements (rounds x passes: each\n"
	       "figure the best of its passes; MB/s: the medians of the pairs).\n"
	       "ratio = harness / direct speed per pair: the median and its distribution-free\n"
	       "%.0f%% interval.  agree: the interval within %.2f..%.2f; DIFFERS: wholly\n"
	       "outside %.2f..%.2f; inconclusive: between (noise, or a gap this shared\n"
	       "machine can make alone).\n"
	       "  %-12s %6s %-6s %9s %9s %6s  %-14s %-8s %s\n",
	       100 * BENCH_SELFCHECK_LEVEL, 1 - BENCH_SELFCHECK_BAND, 1 + BENCH_SELFCHECK_BAND,
	       1 / BENCH_SELFCHECK_DIFFERS, BENCH_SELFCHECK_DIFFERS,
	       "codec", "block", "phase", "harness", "direct", "ratio", "interval", "pairs",
	       "verdict");
	for (size_t i = 0; i < r->n; i++) {
		self_check_line(&r->res[i], "comp", &r->sc[i].comp);
		self_check_line(&r->res[i], "decomp", &r->sc[i].decomp);
		bad |= r->sc[i].comp.verdict == BENCH_DIFFERS ||
		       r->sc[i].decomp.verdict == BENCH_DIFFERS;
	}
	printf("\nKernel mounts: each image loop-mounted read-only in the host kernel and read\n"
	       "cold, against flashfs' own sequential pass (file bytes must agree).\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_kernel_check *k = &r->sc[i].kernel;
		const struct bench_result *x = &r->res[i];

		if (k->ran)
			printf("  %-16s %5uK: kernel %llu bytes in %.3f s, ours %.3f s: %s%s%s\n",
			       x->codec.label, x->block_size >> 10, (unsigned long long)k->bytes,
			       k->kernel_s, k->ours_s, k->same ? "same bytes" : "DIFFERS",
			       k->note[0] ? "; " : "", k->note);
		else
			printf("  %-16s %5uK: not run (%s)\n", x->codec.label, x->block_size >> 10,
			       k->note);
		bad |= k->ran && !k->same;
	}
	return bad;
}

static int outputs(const struct cfg *c, const struct bench_report *r)
{
	int rc = 0;
	struct ff_err e = { 0 };

	if (!c->quiet)
		bench_report_table(stdout, r);
	if (c->csv)
		rc |= write_output(c->csv, r, bench_report_csv);
	if (c->json)
		rc |= write_output(c->json, r, bench_report_json);
	if (c->plot && bench_plot(r, c->plot, &e)) {
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
		rc = -1;
	}
	return rc;
}


static void bin_dir(char *buf, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
	char *slash;

	buf[n > 0 ? n : 0] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(buf, cap, ".");
}

/* The source tree holding nandsim-tests/: $FF_TOP, else above the
 * program (build/bin or build/NAME/bin), else the working directory. */
static const char *find_top(const char *bin, char *buf, size_t cap)
{
	static const char *const up[] = { "/../..", "/../../.." };
	char probe[4300];

	if (getenv("FF_TOP"))
		return getenv("FF_TOP");
	for (size_t i = 0; i < 2; i++) {
		snprintf(buf, cap, "%s%s", bin, up[i]);
		snprintf(probe, sizeof(probe), "%s/nandsim-tests/run-guest.sh", buf);
		if (!access(probe, X_OK))
			return buf;
	}
	return ".";
}

static int earlier_goal(const struct bench_analysis *an, int g)
{
	for (int k = 0; k < g; k++)
		if (an->reco[k].index == an->reco[g].index)
			return k;
	return -1;
}

/* --e2e and --nandsim for each recommendation. */
static int end_to_end(const struct cfg *c, struct bench_report *r, char **src, int n_src,
		      struct bench_e2e *e2e, struct bench_nandsim *ns)
{
	const char *work = c->work;
	char bin[4096], top[4200];
	struct bench_e2e_opts eo = { .bin_dir = bin, .sources = (const char *const *)src,
				     .n_sources = (size_t)n_src, .work_dir = work,
				     .threads = c->measure.threads };
	struct bench_nandsim_opts no = { .bin_dir = bin, .work_dir = work, .image_dir = work };
	int rc = 0;

	bin_dir(bin, sizeof(bin));
	no.top = find_top(bin, top, sizeof(top));
	for (int g = 0; g < BENCH_NGOALS; g++) {
		struct ff_err e = { 0 };
		const struct bench_result *res = &r->res[r->an->reco[g].index];
		int same = earlier_goal(r->an, g);

		if (same >= 0) {
			/* one setting won several goals: measured once */
			e2e[g] = e2e[same];
			ns[g] = ns[same];
			continue;
		}
		if (bench_e2e_run(&eo, res, &e2e[g], &e)) {
			fprintf(stderr, "flashfs bench: e2e %s: %s\n", res->codec.label, e.msg);
			rc = -1;
			continue;
		}
		if (c->nandsim &&
		    bench_nandsim_run(&no, res, r->an, &e2e[g], &ns[g], &e)) {
			fprintf(stderr, "flashfs bench: nandsim %s: %s\n", res->codec.label, e.msg);
			rc = -1;
		}
	}
	r->e2e = e2e;
	r->ns = c->nandsim ? ns : NULL;
	if (!c->quiet)
		printf("Images and end-to-end files are in %s\n", work);
	return rc;
}

static void e2e_report(const struct bench_report *r)
{
	printf("\nEnd to end (recommended settings, real images):\n");
	for (int g = 0; g < BENCH_NGOALS; g++) {
		const struct bench_e2e *e = &r->e2e[g];
		const struct bench_result *x = &r->res[r->an->reco[g].index];

		if (!e->valid)
			continue;
		printf("  %-9s %-22s %4uK: built in %.2f s, image %llu B", bench_goal_name(g),
		       x->codec.label, x->block_size >> 10, e->mkfs_s,
		       (unsigned long long)e->image_size);
		if (e->fuse_read_s >= 0)
			printf(", FUSE read %.3f s", e->fuse_read_s);
		if (e->kernel_read_s >= 0)
			printf(", kernel read %.3f s", e->kernel_read_s);
		printf("%s%s\n", e->note[0] ? "; " : "", e->note);
		if (r->ns && r->ns[g].valid)
			printf("            nandsim at %.2f MB/s: measured %.3f s (no delays %.3f s), "
			       "model %.3f s, guest/host speed %.3f%s%s\n",
			       r->ns[g].flash_mbps, r->ns[g].measured_s, r->ns[g].measured_nodelay_s,
			       r->ns[g].predicted_s, r->ns[g].guest_factor,
			       r->ns[g].note[0] ? "; " : "", r->ns[g].note);
	}
}

static int bench_finish(const struct cfg *c, const struct bench_corpus *corpus, char **src,
			int n_src, struct bench_run *run, const struct bench_analysis *an)
{
	struct bench_e2e e2e[BENCH_NGOALS] = { 0 };
	struct bench_nandsim ns[BENCH_NGOALS] = { 0 };
	struct bench_report r = {
		.corpus = corpus, .sources = (const char *const *)src, .n_sources = (size_t)n_src,
		.res = run->res, .n = run->n, .an = an, .flash = c->flash, .n_flash = c->n_flash,
		.mo = &c->measure, .sc = c->self_check ? run->sc : NULL, .color = c->color,
		.width = table_width(c->wide), .note = c->note[0] ? c->note : NULL,
	};
	int problems = run->failed > 0;

	if (c->e2e && end_to_end(c, &r, src, n_src, e2e, ns))
		problems = 1;
	if (outputs(c, &r))
		return 2;
	if (r.e2e && !c->quiet)
		e2e_report(&r);
	if (r.sc && self_check_report(&r))
		problems = 1;
	return problems;
}

static int cmd_bench(int argc, char **argv)
{
	struct cfg *c = malloc(sizeof(*c));
	struct bench_corpus *corpus = NULL;
	struct bench_run run = { 0 };
	struct bench_analysis an = { 0 };
	struct ff_err e = { 0 };
	int first, rc = 2;

	if (!c)
		return 2;
	first = parse_args(c, argc, argv);
	if (first < 0) {
		usage(first == -2 ? stdout : stderr);
		free(c);
		return first == -2 ? 0 : 2;
	}
	if (c->plot && bench_plot_check(c->plot, &e)) { /* before a run of minutes */
		fprintf(stderr, "flashfs bench: --plot: %s\n", e.msg);
		free(c);
		return 2;
	}
	if (!load_corpus(&corpus, argv + first, argc - first) && default_codecs(c, corpus) &&
	    !make_work_dir(c, c->work, sizeof(c->work)) && !measure_all(c, corpus, c->work, &run)) {
		an.cpu_scale = c->cpu_scale;
		an.target_mbps = c->target.mbps;
		an.weight = c->weight;
		if (bench_analyse(run.res, run.n, &an, &e)) {
			fprintf(stderr, "flashfs bench: %s\n", e.msg);
		} else {
			rc = bench_finish(c, corpus, argv + first, argc - first, &run, &an);
		}
	}
	if (c->work[0] && !c->work_dir && !c->e2e)
		rmdir(c->work);   /* its images were deleted once measured */
	bench_analysis_free(&an);
	bench_run_free(&run);
	bench_corpus_free(corpus);
	free(c);
	return rc;
}

const struct ff_command ff_command_bench = {"bench", cmd_bench,
	"measure codecs and recommend one"};
