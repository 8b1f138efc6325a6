/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* What every builder's main does once its options are parsed: build the
 * tree from the source options, hand it to the format's writer, print each
 * warning and the failure under the program's name, and choose the exit
 * status (0 written, 1 written with warnings, 2 not written). */
#ifndef FF_MKFS_RUN_H
#define FF_MKFS_RUN_H

#include "common/error.h"
#include "common/warn.h"
#include "mkfs/source_args.h"

struct ff_tree;

struct ff_mkfs_run {
	const char *prog;            /* prefixes every message */
	struct ff_source_args *src;  /* the tree's warnings are counted there */
	/* Writes the image from the finished tree: 0, or -1 with err. */
	int (*write)(void *ctx, struct ff_tree *tree, struct ff_err *err);
	void *ctx;
	unsigned warnings;           /* the writer's, notes left out */
	/* After the image is written: the summary (may be NULL). */
	void (*done)(void *ctx);
};

/* An ff_warn_fn for the tree and the writer (ctx: the struct ff_mkfs_run):
 * "PROG: warning: TEXT" on stderr; a note is printed without "warning:"
 * and not counted. */
void ff_mkfs_warn(void *ctx, const struct ff_warning *w);

/* Builds the tree and writes the image; on failure prints "PROG: why".
 * Returns 0 or -1. */
int ff_mkfs_run(struct ff_mkfs_run *run);

/* The exit status from the option parser's result r (> 0: done already,
 * as --help; < 0: a usage error, already printed; 0: the build ran, and
 * failed is what ff_mkfs_run returned). */
int ff_mkfs_exit(const struct ff_mkfs_run *run, int r, int failed);

/* The rest of a builder's main once its option parser returned r: the
 * build when r is 0, then run->done, the source options freed, and the
 * exit status as ff_mkfs_exit chooses it. */
int ff_mkfs_main(struct ff_mkfs_run *run, int r);

#endif
