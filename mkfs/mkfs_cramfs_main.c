/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffmkfs.cramfs: util-linux mkfs.cramfs' command line -> source tree
 * (tree/tree.h) -> cramfs writer, whose image is byte-identical to
 * mkfs.cramfs' for the same tree and options.  The source options of
 * mkfs.squashfs and mkfs.yaffs2 (--all-root, --spec, --exclude, tar
 * input, SOURCE_DATE_EPOCH ...) work too; -e is mkfs.cramfs' edition,
 * so an exclude is spelt --exclude.
 * Exit codes: 0 ok (also with mkfs.cramfs' truncation warnings, as it
 * does), 1 files skipped (--ignore-errors) or warnings with -E, 2 usage
 * error or the build failed (nothing left behind). */
#include <flashfs/version.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "common/pool.h"
#include "cramfs/writer.h"
#include "tree/arg_value.h"
#include "mkfs/mkfs_run.h"
#include "mkfs/source_args.h"

struct args {
	struct ff_source_args src;
	struct ff_mkfs_run run;
	struct ff_cramfs_write_stats st;
	struct ff_cramfs_write_opts wo;
	int verbose, warn_errors;
	const char *image;
};

enum { O_EXCLUDE = 256, O_HELP, O_VERSION };

static const struct option long_opts[] = {
	/* first, so that it wins over the source options' --exclude (which
	 * shares -e's code) */
	{ "exclude", required_argument, NULL, O_EXCLUDE },
	{ "help", no_argument, NULL, O_HELP },
	{ "jobs", required_argument, NULL, 'j' },
	{ "version", no_argument, NULL, O_VERSION },
	FF_SOURCE_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: ffmkfs.cramfs [-h] [-v] [-b blksize] [-e edition] [-N endian] [-i file]\n"
	      "                     [-n name] [-p] [-s] [-z] [-E] [-j N] [SOURCE OPTIONS]\n"
	      "                     dirname outfile\n"
	      "Make a CramFS image, byte for byte as util-linux's mkfs.cramfs makes it.\n\n"
	      "  -v             be verbose (a summary)\n"
	      "  -E             warnings make the exit status 1\n"
	      "  -b blksize     block size = the target's page size (default: this host's)\n"
	      "  -e edition     edition number (part of fsid)\n"
	      "  -N endian      big, little or host (default host)\n"
	      "  -i file        insert a file image after the superblock\n"
	      "  -n name        name of the file system (16 bytes)\n"
	      "  -p             pad by 512 bytes for boot code\n"
	      "  -s             sort directory entries (old option, ignored)\n"
	      "  -z             make explicit holes\n"
	      "  -j, --jobs N   compressing threads, 1 to 1024 (default: the CPUs); the\n"
	      "                 image is the same bytes with any number\n"
	      "  -h, --help     this text;  -V, --version  the version\n"
	      "Source options (as in mkfs.squashfs and mkfs.yaffs2): --all-root,\n"
	      "  --force-uid U, --force-gid G, --exclude GLOB, --exclude-file F, --spec F,\n"
	      "  --pseudo-file F, --one-file-system, --ignore-errors, ...; dirname may be a\n"
	      "  tar archive.\n\n"
	      "Exit status: 0 ok, 1 files skipped or (-E) warnings, 2 usage error or the\n"
	      "build failed (no image).\n",
	      f);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "ffmkfs.cramfs: %s\nTry 'ffmkfs.cramfs --help' for more information.\n",
		msg);
	return -1;
}

static int parse_endian(struct args *a, const char *v, struct ff_err *err)
{
	uint16_t probe = 1;

	if (!strcmp(v, "big"))
		a->wo.big_endian = 1;
	else if (!strcmp(v, "little"))
		a->wo.big_endian = 0;
	else if (!strcmp(v, "host"))
		a->wo.big_endian = *(uint8_t *)&probe == 0;
	else
		return ff_err_set(err, EINVAL, "-N %s: must be big, little or host", v);
	return 0;
}

/* 0 handled, 1 done (help, version), -1 bad value. */
static int parse_opt(struct args *a, int c, const char *arg, struct ff_err *err)
{
	switch (c) {
	case 'b': return ff_arg_size("-b", arg, 1, UINT32_MAX, &a->wo.blksize, err);
	case 'e': return ff_arg_u32("-e", arg, 0, UINT32_MAX, &a->wo.edition, err);
	case 'N': return parse_endian(a, arg, err);
	case 'i': a->wo.insert = arg; return 0;
	case 'n': a->wo.name = arg; return 0;
	case 'p': a->wo.pad = 1; return 0;
	case 's': return 0;
	case 'z': a->wo.holes = 1; return 0;
	case 'j': return ff_arg_u32("-j", arg, 1, 1024, &a->wo.threads, err);
	case 'E': a->warn_errors = 1; return 0;
	case 'v': a->verbose = 1; return 0;
	case O_EXCLUDE: return ff_source_args_option(&a->src, FF_SRC_EXCLUDE, arg, err);
	case 'h':
	case O_HELP: usage(stdout); return 1;
	case 'V':
	case O_VERSION: printf("ffmkfs.cramfs (flashfs-tools) " FF_VERSION_STRING "\n"); return 1;
	default: return ff_err_set(err, EINVAL, "bad option");
	}
}

static int parse_args(struct args *a, int argc, char **argv)
{
	struct ff_err err = { 0, "" };
	int c, r;

	ff_source_args_init(&a->src);
	a->src.tree.no_xattrs = 1; /* cramfs has none */
	a->wo.blksize = (uint32_t)sysconf(_SC_PAGESIZE);
	a->wo.threads = ff_online_cpus();
	(void)parse_endian(a, "host", &err);
	while ((c = getopt_long(argc, argv, "hb:Ee:i:j:n:N:psVvz", long_opts, NULL)) != -1) {
		if (c == '?')
			return usage_error("bad option");
		r = c == 'e' ? 1 : ff_source_args_option(&a->src, c, optarg, &err);
		if (r == 1)
			r = parse_opt(a, c, optarg, &err);
		if (r)
			return r > 0 ? r : usage_error(err.msg);
	}
	if (ff_source_args_epoch(&a->src, getenv("SOURCE_DATE_EPOCH"), &err) ||
	    ff_source_args_positional(&a->src, argc - optind, argv + optind, &a->image, &err) ||
	    ff_source_args_check_image(&a->src, a->image, &err))
		return usage_error(err.msg);
	return 0;
}

static int write_image(void *ctx, struct ff_tree *t, struct ff_err *err)
{
	struct args *a = ctx;

	return ff_cramfs_write(t, &a->wo, a->image, &a->st, err);
}

/* After the image is written: the summary with -v; and as mkfs.cramfs,
 * the writer's warnings fail the run only with -E. */
static void report(void *ctx)
{
	struct args *a = ctx;
	const struct ff_cramfs_write_stats *st = &a->st;

	if (!a->warn_errors)
		a->run.warnings = 0;
	if (!a->verbose)
		return;
	printf("%s: %llu bytes, %u-byte blocks, %s endian%s%s\n", a->image,
	       (unsigned long long)st->bytes, a->wo.blksize, a->wo.big_endian ? "big" : "little",
	       a->wo.pad ? ", 512-byte pad" : "", a->wo.holes ? ", holes" : "");
	printf("%u inodes, %u data blocks (%u holes), %u entries sharing earlier data,"
	       " CRC 0x%08x\n", st->inodes, st->blocks, st->holes, st->shared, st->crc);
}

int main(int argc, char **argv)
{
	struct args a;
	int r;

	memset(&a, 0, sizeof(a));
	a.run = (struct ff_mkfs_run){
		.prog = "ffmkfs.cramfs", .src = &a.src, .write = write_image, .done = report, .ctx = &a,
	};
	r = parse_args(&a, argc, argv);
	a.wo.warn = ff_mkfs_warn;
	a.wo.warn_ctx = &a.run;
	return ff_mkfs_main(&a.run, r);
}
