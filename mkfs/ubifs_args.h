/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubifs' command line (mtd-utils' options, plus the toolkit's source
 * options), parsed into one struct: ffmkfs.ubifs parses its whole command
 * line with it, mkfs.ubi the words after `--ubifs DIR --`, so both take
 * the same options with the same messages.
 *
 * Parsing prints nothing and never exits; it uses getopt_long, so it is
 * not reentrant (process state: one parse at a time). */
#ifndef FF_MKFS_UBIFS_ARGS_H
#define FF_MKFS_UBIFS_ARGS_H

#include <stdio.h>

#include "common/error.h"
#include "mkfs/source_args.h"
#include "ubifs/writer.h"

/* Returns of ff_ubifs_args_parse and _finish besides 0. */
enum {
	FF_UBIFS_ARGS_USAGE = -2,  /* a usage error: the caller adds its --help hint */
	FF_UBIFS_ARGS_ERROR = -1,
	FF_UBIFS_ARGS_HELP = 1,
	FF_UBIFS_ARGS_VERSION = 2,
};

struct ff_ubifs_args {
	struct ff_source_args src;
	struct ff_ubifs_write_opts wo;
	int verbose, have_threads, have_compr;
	const char *image, *root;
	/* Set before parsing when the source and the output come from
	 * elsewhere (mkfs.ubi --ubifs DIR): no output word, no -o, no -r. */
	int no_positionals;
};

/* The defaults: lzo, threads = the CPUs. */
void ff_ubifs_args_init(struct ff_ubifs_args *a);
void ff_ubifs_args_free(struct ff_ubifs_args *a);

/* argv[0] is a name (the program's, or `--`); the options, then the image
 * word (unless no_positionals). */
int ff_ubifs_args_parse(struct ff_ubifs_args *a, int argc, char **argv, struct ff_err *err);

/* After parse (and after the caller filled in what it knows, as mkfs.ubi
 * the geometry): SOURCE_DATE_EPOCH (epoch, may be NULL), the required
 * geometry and its limits, the device table loaded. */
int ff_ubifs_args_finish(struct ff_ubifs_args *a, const char *epoch, struct ff_err *err);

/* The option lines of --help (each line starts with two spaces). */
void ff_ubifs_args_help(FILE *f);

#endif
