/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.romfs: genromfs's command line -> source tree (tree/tree.h) -> the
 * romfs writer, whose image is byte-identical to genromfs 0.5.2's.
 * Exit codes: 0 ok, 1 built with warnings, 2 usage error or the build
 * failed (nothing left behind). */
#include <flashfs/version.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/size.h"
#include "romfs/romfs.h"
#include "mkfs/mkfs_run.h"
#include "mkfs/source_args.h"
#include "tree/tree.h"

#define MAX_PATTERNS 256

struct args {
	struct ff_source_args src;
	struct ff_mkfs_run run;
	struct ff_romfs_write_stats st;
	struct ff_romfs_write_opts wo;
	struct ff_romfs_align aligns[MAX_PATTERNS];
	const char *excludes[MAX_PATTERNS];
	const char *dir, *image;
	int quiet;
};

enum { O_QUIET = 256, O_VERSION };

static const struct option long_opts[] = {
	FF_SOURCE_LONG_OPTIONS,
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, O_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: mkfs.romfs [OPTIONS] -f IMAGE\n"
	      "Build a romfs image from a directory, byte for byte as genromfs 0.5.2 does.\n\n"
	      "  -f IMAGE               write the image here ('-': standard output)\n"
	      "  -d DIRECTORY           the source (default: the current directory)\n"
	      "  -v                     list each entry as it is placed\n"
	      "  -V VOLUME              the volume name (default: 'rom ' and the time)\n"
	      "  -a ALIGN               align regular file data to ALIGN bytes\n"
	      "  -A ALIGN,PATTERN       align objects matching PATTERN to at least ALIGN\n"
	      "  -x PATTERN             leave out objects matching PATTERN\n"
	      "  -h, --help             this text\n"
	      "ALIGN is a power of two, at least 16.  A PATTERN is a shell glob on the\n"
	      "name, or on the path below DIRECTORY when it starts with '/'.\n\n"
	      "Source tree options of the toolkit (mkfs.squashfs, mkfs.yaffs2):\n"
	      "  --spec FILE, --pseudo-file FILE, -p/--pseudo LINE, -e/--exclude GLOB,\n"
	      "  --tar, --one-file-system, --ignore-errors and the rest (see the man page);\n"
	      "  romfs keeps no owners, times or xattrs, so those options change nothing.\n"
	      "  --quiet                no summary\n"
	      "  --version              the version\n\n"
	      "Exit status: 0 ok, 1 built with warnings, 2 usage error or the build failed.\n",
	      f);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "mkfs.romfs: %s\nTry 'mkfs.romfs -h' for more information.\n", msg);
	return -1;
}

/* genromfs's ALIGN, a power of two of at least 16, in the one size syntax
 * (4096, 0x1000, 4K, 4KiB); it ends at the end of arg or at end_char. */
static int parse_align(const char *arg, uint32_t *align, char **end, char end_char)
{
	char num[32];
	size_t n = end_char ? strcspn(arg, (char[]){ end_char, 0 }) : strlen(arg);
	uint64_t v;

	*end = (char *)arg + n;
	if (n >= sizeof(num))
		return usage_error("Align has to be at least 16 bytes and a power of two");
	memcpy(num, arg, n);
	num[n] = 0;
	if (ff_parse_size(num, &v) < 0)
		return usage_error("Align is not a size (" FF_SIZE_SYNTAX ")");
	if (v < 16 || v > (1ul << 30) || (v & (v - 1)))
		return usage_error("Align has to be at least 16 bytes and a power of two");
	*align = (uint32_t)v;
	return 0;
}

static int add_align(struct args *a, const char *arg)
{
	struct ff_romfs_align *al = &a->aligns[a->wo.n_aligns];
	char *p;

	if (a->wo.n_aligns == MAX_PATTERNS)
		return usage_error("too many -A options");
	if (parse_align(arg, &al->align, &p, ','))
		return -1;
	if (*p != ',' || !p[1])
		return usage_error("-A takes N,PATTERN format of argument, where N is a number");
	al->pattern = p + 1;
	a->wo.n_aligns++;
	return 0;
}

/* genromfs's own options.  0 handled, 1 "done, exit 0", -1 usage error. */
static int parse_opt(struct args *a, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'f': a->image = arg; return 0;
	case 'd': a->dir = arg; return 0;
	case 'V': a->wo.volume = arg; return 0;
	case 'v': a->wo.verbose = 1; return 0;
	case 'a': return parse_align(arg, &a->wo.align, &end, 0);
	case 'A': return add_align(a, arg);
	case 'x':
		if (a->wo.n_excludes == MAX_PATTERNS)
			return usage_error("too many -x options");
		a->excludes[a->wo.n_excludes++] = arg;
		return 0;
	case O_QUIET: a->quiet = 1; return 0;
	case 'h': usage(stdout); return 1;
	case O_VERSION: printf("mkfs.romfs (flashfs-tools) " FF_VERSION_STRING ", as genromfs 0.5.2\n"); return 1;
	default: return usage_error("bad option");
	}
}

static int parse_options(struct args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	int c, r;

	while ((c = getopt_long(argc, argv, "V:vd:f:ha:A:x:e:", long_opts, NULL)) != -1) {
		if (c == '?')
			return usage_error("bad option");
		r = ff_source_args_option(&a->src, c, optarg, &err);
		if (r == 1)
			r = parse_opt(a, c, optarg);
		else if (r < 0)
			return usage_error(err.msg);
		if (r)
			return r;
	}
	if (optind < argc)
		return usage_error("unexpected argument (the source is -d DIRECTORY)");
	return 0;
}

/* SOURCE IMAGE for the shared source options: -d, or the current directory
 * as genromfs, unless only spec or pseudo definitions describe the tree. */
static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	char *words[2];
	int n = 0, r;

	a->wo.align = 16;
	a->wo.aligns = a->aligns;
	a->wo.excludes = a->excludes;
	a->wo.host_order = 1;
	ff_source_args_init(&a->src);
	ff_source_map_single_dash(argc, argv, NULL);
	if ((r = parse_options(a, argc, argv)) != 0)
		return r;
	if (!a->image)
		return usage_error("you must specify the destination file (-f IMAGE)");
	if (a->dir || !(a->src.specs.n || a->src.pseudo_files.n || a->src.pseudo_lines.n ||
			a->src.tar_stdin))
		words[n++] = (char *)(a->dir ? a->dir : ".");
	words[n++] = (char *)a->image;
	if (ff_source_args_epoch(&a->src, getenv("SOURCE_DATE_EPOCH"), &err) ||
	    ff_source_args_positional(&a->src, n, words, &a->image, &err) ||
	    (strcmp(a->image, "-") && ff_source_args_check_image(&a->src, a->image, &err)))
		return usage_error(err.msg);
	/* the default volume name carries a time: SOURCE_DATE_EPOCH's, if
	 * set, so that two builds give the same bytes */
	a->wo.have_volume_time = a->src.tree.clamp_time >= 0;
	a->wo.volume_time = a->src.tree.clamp_time;
	return 0;
}

static void report(void *ctx)
{
	const struct args *a = ctx;
	const struct ff_romfs_write_stats *st = &a->st;

	if (a->quiet || !strcmp(a->image, "-"))
		return;
	printf("%s: romfs, %llu entries (%llu files, %llu directories, %llu symlinks,"
	       " %llu hard links, %llu special), %llu bytes, image %llu bytes\n", a->image,
	       (unsigned long long)st->entries, (unsigned long long)st->files,
	       (unsigned long long)st->dirs, (unsigned long long)st->symlinks,
	       (unsigned long long)st->hardlinks, (unsigned long long)st->specials,
	       (unsigned long long)st->fs_size, (unsigned long long)st->image_bytes);
}

static int write_image(void *ctx, struct ff_tree *t, struct ff_err *err)
{
	struct args *a = ctx;

	return ff_romfs_write_file(t, &a->wo, a->image, &a->st, err);
}

int main(int argc, char **argv)
{
	static struct args a; /* the pattern tables are large for the stack */
	int r;

	a.run = (struct ff_mkfs_run){
		.prog = "mkfs.romfs", .src = &a.src, .write = write_image, .done = report, .ctx = &a,
	};
	r = parse_args(&a, argc, argv);
	a.wo.warn = ff_mkfs_warn;
	a.wo.warn_ctx = &a.run;
	return ff_mkfs_main(&a.run, r);
}
