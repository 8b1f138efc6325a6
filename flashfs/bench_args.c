/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs bench's command line: --help, the options and their checks, into
 * struct bench_cfg (cmd_bench.c runs and prints). */
#include "flashfs/bench_args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pool.h"
#include "common/size.h"
#include "tree/build.h"

void bench_usage(FILE *out)
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
		"                         zstd-3 zstd-15 zstd-19; none: uncompressed (UBIFS,\n"
		"                         JFFS2 store it)\n"
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
		"  -t, --target-flash S   the B of \"fastest boot read\" (default slc-nand);\n"
		"                         a preset also says the storage (last column below)\n"
		"      --flash-type T     nor, nand or block: which file systems run (default:\n"
		"                         the target preset's; a plain number: block).  Every\n"
		"                         one runs the read-only images (SquashFS, EROFS); nor\n"
		"                         adds JFFS2, nand adds UBIFS (see flashfs formats)\n"
		"      --erase-block SIZE the flash's erase block (default: JFFS2 64K on NOR,\n"
		"                         UBIFS 128K on NAND)\n"
		"      --page-size SIZE   the NAND page, UBIFS' minimum I/O (default 2K)\n"
		"      --flash-size SIZE  the partition UBIFS may grow to (default 256M)\n"
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
	O_WORK_DIR, O_NO_PROGRESS, O_COLOR, O_NO_COLOR, O_WIDE, O_FS, O_FLASH_TYPE, O_ERASE_BLOCK,
	O_PAGE_SIZE, O_FLASH_SIZE,
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
	{ "flash-type", required_argument, NULL, O_FLASH_TYPE },
	{ "erase-block", required_argument, NULL, O_ERASE_BLOCK },
	{ "page-size", required_argument, NULL, O_PAGE_SIZE },
	{ "flash-size", required_argument, NULL, O_FLASH_SIZE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int bench_bad(const char *what, const char *value, const char *why)
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

static int parse_block_sizes(struct bench_cfg *c, const char *list)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	c->n_bs = 0;
	for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (c->n_bs == MAX_BLOCK_SIZES)
			return bench_bad("--block-sizes", list, "too many");
		if (parse_size(t, &c->block_sizes[c->n_bs++]))
			return bench_bad("--block-sizes", t, "expected a power of two 4K..1M");
	}
	return c->n_bs ? 0 : bench_bad("--block-sizes", list, "empty list");
}

static int add_codec(struct bench_cfg *c, const char *spec)
{
	struct ff_err e = { 0 };

	if (c->n_codecs == MAX_CODECS)
		return bench_bad("--codec", spec, "too many codec settings");
	if (bench_codec_parse(spec, &c->codecs[c->n_codecs], &e))
		return bench_bad("--codec", spec, e.msg);
	c->n_codecs++;
	return 0;
}

static int add_codecs(struct bench_cfg *c, const char *list)
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
		return bench_bad(opt, s, "out of range or not a number");
	*out = v;
	return 0;
}

static int parse_flash(struct bench_cfg *c, const char *opt, const char *s, int target)
{
	struct ff_err e = { 0 };
	size_t n;

	if (target ? bench_flash_parse(s, &c->target, 1, &n, &e)
		   : bench_flash_parse(s, c->flash, MAX_FLASH, &c->n_flash, &e))
		return bench_bad(opt, s, e.msg);
	return 0;
}

static void defaults(struct bench_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->measure.threads = ff_online_cpus();
	c->measure.min_time = 0.5;
	c->measure.min_repeats = 3;
	c->cpu_scale = 1;
	c->weight = 0.5;
	c->progress = isatty(STDERR_FILENO);
	c->color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
}

static int parse_num_opt(struct bench_cfg *c, int opt, const char *arg)
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

static int parse_flash_type(struct bench_cfg *c, const char *s)
{
	static const struct { const char *name; unsigned medium; } types[] = {
		{ "block", FF_MEDIUM_BLOCK }, { "nor", FF_MEDIUM_NOR }, { "nand", FF_MEDIUM_NAND },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(s, types[i].name)) {
			c->medium = types[i].medium;
			return 0;
		}
	return bench_bad("--flash-type", s, "expected nor, nand or block");
}

/* --erase-block, --page-size (powers of two) and --flash-size. */
static int parse_geometry(struct bench_cfg *c, int opt, const char *s)
{
	static const char *const names[] = { "--erase-block", "--page-size", "--flash-size" };
	const char *name = names[opt - O_ERASE_BLOCK];
	uint64_t v;

	if (ff_parse_size(s, &v) < 0 || !v)
		return bench_bad(name, s, "expected a size (4096, 128K, 256M)");
	if (opt == O_FLASH_SIZE) {
		c->flash_size = v;
		return 0;
	}
	if ((v & (v - 1)) || v > (1u << 30) || (opt == O_ERASE_BLOCK && v < 8192))
		return bench_bad(name, s, opt == O_ERASE_BLOCK ? "expected a power of two, 8K..1G"
							      : "expected a power of two up to 1G");
	*(opt == O_ERASE_BLOCK ? &c->erase_block : &c->page_size) = (uint32_t)v;
	return 0;
}

static int add_flag(struct bench_cfg *c, const char *kv)
{
	if (c->n_flags == MAX_FLAGS)
		return bench_bad("-O", kv, "too many format options");
	c->flags[c->n_flags++] = kv;
	return 0;
}

static int parse_fs(struct bench_cfg *c, const char *list)
{
	char *save = NULL;

	snprintf(c->fs_buf, sizeof(c->fs_buf), "%s", list);
	c->n_fs = 0;
	for (char *t = strtok_r(c->fs_buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (c->n_fs == MAX_FS)
			return bench_bad("--fs", list, "too many");
		c->fs[c->n_fs++] = t;
	}
	return c->n_fs ? 0 : bench_bad("--fs", list, "empty list");
}

static int parse_flag(struct bench_cfg *c, int opt)
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
static int test_hook(struct bench_cfg *c)
{
	const char *v = getenv("FLASHFS_BENCH_SLOW_DIRECT");
	char *end;
	unsigned long f;

	if (!v || !*v)
		return 0;
	errno = 0;
	f = strtoul(v, &end, 10);
	if (errno || *end || f < 1 || f > 100)
		return bench_bad("FLASHFS_BENCH_SLOW_DIRECT", v, "expected a whole factor 1..100");
	c->slow_direct = (unsigned)f;
	return 0;
}

static int parse_one(struct bench_cfg *c, int opt, const char *arg)
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
	case O_FLASH_TYPE: return parse_flash_type(c, arg);
	case O_ERASE_BLOCK:
	case O_PAGE_SIZE:
	case O_FLASH_SIZE: return parse_geometry(c, opt, arg);
	case 'O': return add_flag(c, arg);
	}
	return -1;
}

int bench_parse_args(struct bench_cfg *c, int argc, char **argv)
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
	for (size_t i = 0; c->self_check && i < c->n_codecs; i++)
		if (!strcmp(c->codecs[i].name, "none"))
			return bench_bad("--codec", c->codecs[i].label, "--self-check times a codec "
					 "against a plain loop; none has nothing to time");

	if (optind >= argc) {
		fprintf(stderr, "flashfs bench: no SOURCE given\n");
		return -1;
	}
	return optind;
}
