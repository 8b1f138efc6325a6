/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The SquashFS 4.0 writer: builds an image from a finished tree/ tree.
 *
 *   ff_sqfs_write(tree, &opts, "out.sqfs", &stats, &err)
 *
 * writes IMAGE atomically (temporary beside it, renamed at the end).  With
 * image_path NULL nothing is written: the same pipeline runs (dedup, block
 * and fragment splitting, compression, every table) and `stats` reports the
 * sizes mkfs would produce; `block_cb` sees every data and fragment block.
 * That dry run is what the bench uses to model a tree without an image.
 *
 * Output is deterministic: the same tree and options give the same bytes
 * whatever `jobs` is. */
#ifndef FF_SQUASHFS_WRITER_H
#define FF_SQUASHFS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/fs.h"
#include "compress/compress.h"
#include "tree/tree.h"

enum ff_sqfs_block_kind {
	FF_SQFS_BLOCK_DATA = 0,    /* a (possibly short) file block */
	FF_SQFS_BLOCK_FRAGMENT = 1, /* a block of packed tail ends */
	FF_SQFS_BLOCK_SPARSE = 2,  /* an all-zero block stored as size 0 */
};

struct ff_sqfs_write_opts {
	const struct ff_comp *comp; /* codec and its options, built for block_size */
	uint32_t block_size;        /* power of two, 4 KiB .. 1 MiB */
	unsigned jobs;              /* compression threads; 0 = online CPUs */
	int64_t mkfs_time;          /* superblock time; < 0 = now */
	int no_fragments;           /* every tail is a short block */
	int always_fragments;       /* pack tails of files >= block_size too */
	int no_dedup;
	int no_exports;
	int no_sparse;
	int no_xattrs;              /* only sets the superblock flag; the tree
				       already dropped its xattrs */
	/* Parts stored uncompressed (mksquashfs -noI -noId -noD -noF -noX):
	 * raw_inodes covers the inode, directory and export tables and
	 * implies raw ids. */
	int raw_inodes, raw_ids, raw_data, raw_fragments, raw_xattrs;
	uint64_t offset;            /* the image starts this many bytes into
				       the file (mksquashfs -offset); the bytes
				       before it are zeros */
	int no_pad;                 /* do not pad the file to 4 KiB */

	/* Optional hooks; called from the writing thread only. */
	ff_warn_fn warn;
	void (*progress)(void *ctx, uint64_t bytes_done, uint64_t bytes_total,
			 uint64_t files_done, uint64_t files_total);
	/* Every data, fragment and sparse block in image order, with its
	 * uncompressed bytes (valid during the call only). */
	void (*block_cb)(void *ctx, enum ff_sqfs_block_kind kind, const void *in,
			 uint32_t in_len, uint32_t out_len, int stored_raw);
	void *cb_ctx;

	/* Append: the existing image (from ff_sqfs_append_open), whose data
	 * region is copied as it is; the tree's nodes with img == append
	 * reuse their stored blocks and fragments.  comp and block_size must
	 * be the image's (ff_sqfs_append_comp, ff_sqfs_append_block_size). */
	struct ff_fs *append;

	/* Optional: while the temporary image exists its path is published
	 * here (else NULL), so a main's signal handler can unlink it. */
	const char *volatile *tmp_path_slot;

	/* Optional: the image is not linked into place (image_path only says
	 * in which directory, and names it in messages) but kept here, the
	 * caller's (see ff_outfile_detach).  For an image wanted only by this
	 * process (mkfs.ubi's volume), which a kill -9 must not leave behind. */
	struct ff_outfile_kept *keep;
};

struct ff_sqfs_write_stats {
	uint64_t bytes_used;       /* superblock bytes_used (unpadded) */
	uint64_t image_size;       /* padded to 4 KiB */
	uint64_t data_in;          /* file content bytes in the tree */
	uint64_t data_out;         /* data + fragment block bytes written */
	uint64_t inode_count;
	uint64_t n_dirs, n_files, n_symlinks, n_special;
	uint64_t n_hardlinks;      /* extra names sharing an inode */
	uint64_t n_blocks;         /* data blocks (incl. short and sparse) */
	uint64_t n_sparse_blocks;
	uint64_t n_raw_blocks;     /* stored uncompressed */
	uint64_t n_fragment_blocks;
	uint64_t n_fragment_tails;
	uint64_t n_dup_files;
	uint64_t dup_bytes;
	uint32_t n_ids;
	uint32_t n_xattr_ids;
	uint64_t inode_table_bytes, dir_table_bytes;
	uint64_t fragment_table_bytes, export_table_bytes, id_table_bytes, xattr_table_bytes;
};

/* Append (mksquashfs without -noappend).  1 and *fs open when path is a
 * SquashFS image, 0 when it does not exist or is no SquashFS image (it is
 * then replaced), -1 when it starts like one but cannot be read.  Close
 * *fs with ff_fs_close after writing. */
int ff_sqfs_append_open(const char *path, struct ff_fs **fs, struct ff_err *err);
const struct ff_comp *ff_sqfs_append_comp(const struct ff_fs *fs);
uint32_t ff_sqfs_append_block_size(const struct ff_fs *fs);
/* The image's compressor and block size win: an explicit different one
 * (comp, block_size; NULL / 0 when not given) is an error naming both. */
int ff_sqfs_append_check(const struct ff_fs *fs, const struct ff_comp *comp,
			 uint32_t block_size, struct ff_err *err);

/* Returns 0, or -1 with err naming the file/thing and the problem; on error
 * no IMAGE is left behind and an existing IMAGE is untouched. */
int ff_sqfs_write(const struct ff_tree *tree, const struct ff_sqfs_write_opts *opts,
		  const char *image_path, struct ff_sqfs_write_stats *stats, struct ff_err *err);

#endif
