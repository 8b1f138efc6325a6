/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.squashfs' build step, from parsed options (squashfs_args.h) to an
 * image file: the compressor, the append check, the source tree, the
 * writer.  mkfs.squashfs and mkfs.ubi --squashfs both run it; what they
 * report stays theirs, through the hooks. */
#ifndef FF_MKFS_SQUASHFS_BUILD_H
#define FF_MKFS_SQUASHFS_BUILD_H

#include <stdio.h>

#include "common/warn.h"
#include "compress/compress.h"
#include "mkfs/squashfs_args.h"
#include "squashfs/writer.h"

/* Every hook is optional; all get ctx. */
struct ff_sqfs_build_hooks {
	ff_warn_fn warn;                           /* source and writer warnings */
	void (*log)(void *ctx, const char *msg);   /* --log-action lines */
	/* The finished tree, before the image is written: nonzero stops the
	 * build and is its result (the hook reported the problem). */
	int (*tree)(void *ctx, const struct ff_tree *tree);
	/* Appending to the existing SquashFS IMAGE (mksquashfs' default),
	 * before the sources are read: its version and block size. */
	void (*appending)(void *ctx, const struct ff_fs *old, uint32_t block_size);
	void (*progress)(void *ctx, uint64_t bytes, uint64_t bytes_total, uint64_t files,
			 uint64_t files_total);
	/* The image is written: the compressor used (the old image's when
	 * appending) and the writer's figures. */
	void (*written)(void *ctx, const struct ff_comp *comp,
			const struct ff_sqfs_write_stats *st);
	void *ctx;
	const char *volatile *tmp_path_slot;       /* see ff_sqfs_write_opts */
	struct ff_outfile_kept *keep;              /* see ff_sqfs_write_opts */
};

/* The compressor the options name, with its -X options; NULL with err
 * naming the option. */
struct ff_comp *ff_sqfs_args_comp(const struct ff_sqfs_args *a, struct ff_err *err);

/* Builds a->image from finished options (ff_sqfs_args_finish).  0 written;
 * FF_SQFS_ARGS_USAGE (a bad compressor or option) or FF_SQFS_ARGS_ERROR
 * with err; or what the tree hook returned. */
int ff_sqfs_args_build(struct ff_sqfs_args *a, const struct ff_sqfs_build_hooks *h,
		       struct ff_err *err);

/* -info: every entry of a finished tree, one a line, to f.  -1 when f
 * reports a write error. */
int ff_sqfs_info_write(const struct ff_tree *tree, FILE *f);

#endif
