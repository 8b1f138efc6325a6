/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs dump /dev/mtdN IMAGE: read the good blocks of an MTD device into
 * an image (atomically, through common/outfile.h), reporting ECC
 * corrections and failures.  mtd/mtd.h does the work. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "common/size.h"
#include "flashfs/commands.h"
#include "flashfs/flash_opts.h"
#include "image/image.h"
#include "mtd/mtd.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: flashfs dump [OPTIONS] /dev/mtdN IMAGE\n"
		"Read the device's good blocks (bad blocks are skipped, as nanddump\n"
		"--bb=skipbad does) into IMAGE.\n\n"
		"  --no-oob              page data only (the default without the options\n"
		"                        below)\n"
		"  --oob                 page data + the raw OOB bytes as the chip holds them\n"
		"  -l, --length N        stop after N image bytes (4096, 0x1000, 64K, 1M, 2G)\n"
		"  -q, --quiet           no progress or summary\n"
		"Tags beside each page (YAFFS2), read with MTD_OPS_AUTO_OOB and written where\n"
		"the layout puts them:\n"
		FF_FLASH_LAYOUT_USAGE
		"\nExit status: 0 ok, 1 uncorrectable ECC errors (the image is written and\n"
		"the pages named), 2 usage or fatal error (nothing written).\n");
}

struct dump_args {
	const char *dev, *image;
	enum ff_mtd_oob_mode oob;
	int oob_given, quiet, have_spec;
	uint64_t length;
	struct ff_flash_layout lay;
};

static int parse_length(const char *s, uint64_t *v)
{
	uint64_t n;

	if (ff_parse_size(s, &n) < 0 || n == 0)
		return -1;
	*v = n;
	return 0;
}

static int parse_one(struct dump_args *a, int c, const char *arg)
{
	switch (c) {
	case 'n': a->oob = FF_MTD_OOB_NONE; a->oob_given = 1; return -1;
	case 'o': a->oob = FF_MTD_OOB_RAW; a->oob_given = 1; return -1;
	case 'q': a->quiet = 1; return -1;
	case 'h': usage(stdout); return 0;
	case 'l':
		if (!parse_length(arg, &a->length))
			return -1;
		fprintf(stderr, "flashfs dump: --length: '%s' is not a positive size ("
			FF_SIZE_SYNTAX ")\n", arg);
		return 2;
	default: usage(stderr); return 2;
	}
}

static int parse(int argc, char **argv, struct dump_args *a)
{
	static const struct option opts[] = {
		{"no-oob", no_argument, NULL, 'n'}, {"oob", no_argument, NULL, 'o'},
		{"length", required_argument, NULL, 'l'}, {"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'}, FF_FLASH_LAYOUT_OPTIONS, {NULL, 0, NULL, 0}};
	struct ff_err err = {0};
	int c, r;

	memset(a, 0, sizeof(*a));
	optind = 1;
	while ((c = getopt_long(argc, argv, "l:qh", opts, NULL)) != -1) {
		r = ff_flash_layout_option(&a->lay, c, optarg, &err);
		if (r < 0) {
			fprintf(stderr, "flashfs dump: %s\n", err.msg);
			return 2;
		}
		a->have_spec |= r;
		if (!r && (r = parse_one(a, c, optarg)) >= 0)
			return r;
	}
	if (a->have_spec && a->oob_given) {
		fprintf(stderr, "flashfs dump: --oob and --no-oob do not go with the page layout "
				"options, which choose the image layout themselves\n");
		return 2;
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	if (a->have_spec)
		a->oob = FF_MTD_OOB_MAP;
	a->dev = argv[optind];
	a->image = argv[optind + 1];
	return -1;
}

static void report(const struct dump_args *a, const struct ff_mtd_stats *st)
{
	if (!a->quiet)
		printf("flashfs dump: %s -> %s: %llu bytes from %u erase blocks, %u bad blocks "
		       "skipped\n",
		       a->dev, a->image, (unsigned long long)st->bytes, st->blocks, st->bad_skipped);
	if (!a->quiet || st->failed || st->corrected)
		printf("flashfs dump: %s: ECC: %llu bit flips corrected, %llu pages uncorrectable%s",
		       a->dev, (unsigned long long)st->corrected, (unsigned long long)st->failed,
		       st->have_ecc_stats ? "" : "\n");
	if ((!a->quiet || st->failed || st->corrected) && st->have_ecc_stats)
		printf(" (device counters: +%llu corrected, +%llu failed)\n",
		       (unsigned long long)st->dev_corrected, (unsigned long long)st->dev_failed);
	if (st->failed)
		fprintf(stderr, "flashfs dump: %s: %llu pages could not be corrected, the first at "
				"0x%llx; their data in %s is unreliable\n",
			a->dev, (unsigned long long)st->failed,
			(unsigned long long)st->first_failed, a->image);
}

static int run(const struct dump_args *a, struct ff_mtd *m)
{
	struct ff_err err = {0};
	struct ff_flash_dev dev;
	struct ff_pagemap map;
	struct ff_flash_progress bar = {"dump", 0};
	struct ff_mtd_dump_opts o = {a->oob, NULL, a->length, a->quiet ? NULL : ff_flash_progress, &bar};
	struct ff_mtd_stats st;
	struct ff_outfile of;

	int rc;

	if (a->have_spec) {
		ff_mtd_flash_dev(m, &dev);
		if (ff_image_flash_map(NULL, &a->lay, &dev, &map, &err) < 0) {
			fprintf(stderr, "flashfs dump: %s\n", err.msg);
			return 2;
		}
		o.map = &map;
	}
	rc = ff_outfile_open(&of, a->image, &err);
	if (!rc && (ff_mtd_dump(m, &of, &o, &st, &err) || ff_outfile_commit(&of, &err))) {
		ff_outfile_abort(&of);
		rc = -1;
	}
	if (o.map)
		ff_pagemap_release(&map);
	if (rc) {
		fprintf(stderr, "%sflashfs dump: %s\n", bar.line_open ? "\n" : "", err.msg);
		return 2;
	}
	report(a, &st);
	if (a->length && st.bytes < a->length) {
		fprintf(stderr, "flashfs dump: %s: the good blocks end after %llu of the %llu bytes "
				"asked for\n", a->dev, (unsigned long long)st.bytes,
			(unsigned long long)a->length);
		return 1;
	}
	return st.failed ? 1 : 0;
}

static int cmd_dump(int argc, char **argv)
{
	struct dump_args a;
	struct ff_err err = {0};
	struct ff_mtd *m;
	int rc = parse(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (ff_mtd_open(a.dev, 0, &m, &err)) {
		fprintf(stderr, "flashfs dump: %s\n", err.msg);
		return 2;
	}
	rc = run(&a, m);
	ff_mtd_close(m);
	return rc;
}

const struct ff_command ff_command_dump = {"dump", cmd_dump,
	"read an MTD device (pages + OOB) into an image"};
