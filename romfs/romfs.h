/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* romfs: the read interface (common/fs.h) over an image, and the writer
 * that lays a source tree (tree/tree.h) out as genromfs 0.5.2 does. */
#ifndef FF_ROMFS_ROMFS_H
#define FF_ROMFS_ROMFS_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/warn.h"

struct ff_tree;

/* Opens the romfs image at byte 0 of src (one reference taken). */
int ff_romfs_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		      struct ff_err *err);

/* genromfs -A ALIGN,PATTERN */
struct ff_romfs_align {
	uint32_t align;
	const char *pattern;
};

struct ff_romfs_write_opts {
	const char *volume;        /* -V; NULL: "rom " and the time in hex, as genromfs */
	/* That default name's time when have_volume_time (SOURCE_DATE_EPOCH,
	 * so that the image is reproducible), else now. */
	int have_volume_time;
	int64_t volume_time;
	uint32_t align;            /* -a: regular file data alignment (16 default) */
	const struct ff_romfs_align *aligns; /* -A, in the order given */
	size_t n_aligns;
	const char *const *excludes; /* -x patterns */
	size_t n_excludes;
	/* Order each directory as the host's readdir lists it (genromfs
	 * does); entries no host directory holds follow, sorted.  0: sorted. */
	int host_order;
	int verbose;               /* -v: one line per entry to `warn` as notes */
	ff_warn_fn warn;
	void *warn_ctx;
};

struct ff_romfs_write_stats {
	uint64_t entries;          /* file headers, "." and ".." included */
	uint64_t files, dirs, symlinks, hardlinks, specials;
	uint64_t fs_size;          /* the superblock's full size */
	uint64_t image_bytes;      /* the file written (padded to 1 KiB) */
};

/* Writes the image to path ("-": standard output). */
int ff_romfs_write_file(const struct ff_tree *tree, const struct ff_romfs_write_opts *o,
			const char *path, struct ff_romfs_write_stats *st, struct ff_err *err);

#endif
