/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: writing a SquashFS 4.0 image.
 *
 * The image mounts with the Linux kernel's driver (`mount -o loop`) and
 * reads with unsquashfs and squashfuse.  Identical files are stored once,
 * tails packed into fragments, all-zero blocks left sparse.  Output is
 * deterministic: the same tree and options give the same bytes whatever
 * `jobs` is (set mkfs_time to make the superblock time fixed too). */
#ifndef FLASHFS_SQUASHFS_H
#define FLASHFS_SQUASHFS_H

#include <stdint.h>

#include <flashfs/error.h>
#include <flashfs/fstree.h>

struct ff_squashfs_options {
	const char *codec;         /* "gzip" (default), "lzo", "lzma", "xz", "lz4", "zstd" */
	const char *codec_options; /* NULL, or "key=value,..." as in <flashfs/codec.h> */
	uint32_t block_size;       /* power of two, 4 KiB .. 1 MiB; default 128 KiB */
	unsigned jobs;             /* compression threads; 0 = one per online CPU */
	int64_t mkfs_time;         /* superblock time; -1 = now */
	int no_fragments;          /* every file tail is a short block of its own */
	int no_dedup;              /* store identical files again */
	int no_exports;            /* no NFS export table */
	int no_sparse;             /* store all-zero blocks like the others */
};

/* Fills *opts with the defaults above. */
FF_API void ff_squashfs_options_init(struct ff_squashfs_options *opts);

/* Writes the image to image_path through a temporary file beside it,
 * renamed at the end: on failure nothing is left behind and an existing
 * file of that name is untouched.  opts may be NULL (the defaults).
 * Finishes the tree (see <flashfs/fstree.h>). */
FF_API int ff_squashfs_write(struct ff_fstree *tree, const char *image_path,
			     const struct ff_squashfs_options *opts, struct ff_error *err);

#endif
