/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Writing an EROFS image from a finished source tree (tree/tree.h), as
 * mkfs.erofs lays one out: the superblock at 1024, the inodes from just
 * after it (meta_blkaddr 0, so the root's nid is 36), each inode with its
 * xattrs and, for the flat inline layout, the file's last partial block
 * right behind it; the shared xattrs after the inodes, then the data
 * blocks in the tree's pre-order.  Compressed files are cut into
 * physical clusters that each hold as much input as fits (every codec's
 * "destination size" mode), compressed in the worker pool and placed in
 * file order, so the bytes do not depend on -j. */
#ifndef FF_EROFS_WRITER_H
#define FF_EROFS_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/warn.h"
#include "tree/tree.h"

enum ff_erofs_inode_form { FF_EROFS_INODE_AUTO, FF_EROFS_INODE_COMPACT, FF_EROFS_INODE_EXTENDED };

enum ff_erofs_codec {
	FF_EROFS_NONE, FF_EROFS_LZ4, FF_EROFS_LZ4HC, FF_EROFS_LZMA, FF_EROFS_DEFLATE,
	FF_EROFS_ZSTD,
};

struct ff_erofs_write_opts {
	uint32_t blksize;          /* a power of two 512..65536 */
	int64_t build_time;        /* the superblock's time (epoch of compact inodes) */
	uint8_t uuid[16];
	char label[16];            /* volume name, not NUL-terminated when full */
	enum ff_erofs_inode_form inode_form;
	int no_inline;             /* -E noinline_data: tails in blocks of their own */
	int xattr_tolerance;       /* -x: shared when used by more inodes than this;
				      < 0 no xattrs */
	enum ff_erofs_codec codec;
	int level;                 /* -1: the codec's default */
	uint32_t pcluster;         /* -C: bytes of a physical cluster (0 = one block) */
	int full_indexes;          /* -E legacy-compress: full lcluster indexes */
	int ztailpacking;          /* -E ztailpacking: a compressed file's last
				      pcluster behind its inode when it fits */
	int fragments;             /* -E fragments: a compressed file's last extent
				      (a file of a block or less whole) in the
				      packed inode, itself compressed */
	int all_fragments;         /* -E all-fragments: every compressed file
				      whole in the packed inode */
	int dedupe;                /* -E dedupe: an extent whose bytes start like
				      an earlier pcluster's takes that pcluster
				      (equal files share theirs, also with
				      fragments) */
	uint32_t chunksize;        /* --chunksize: files not compressed are
				      chunk-based, all-zero chunks holes (0: off) */
	unsigned threads;          /* 0: one per CPU */
	ff_warn_fn warn;
	void *warn_ctx;
};

struct ff_erofs_write_stats {
	uint64_t bytes;            /* the image */
	uint32_t inodes, shared_xattrs, compressed_files;
	uint32_t shared_files;     /* compressed files sharing an equal one's data */
	uint32_t deduped_files;    /* files with some extent on an earlier file's pcluster */
	uint64_t fragment_bytes;   /* the packed inode's size (before compression) */
	uint64_t meta_bytes, data_blocks;
};

void ff_erofs_write_opts_init(struct ff_erofs_write_opts *o);

/* Writes the image to path (atomically: nothing is left on failure). */
int ff_erofs_write(const struct ff_tree *tree, const struct ff_erofs_write_opts *o,
		   const char *path, struct ff_erofs_write_stats *st, struct ff_err *err);

#endif
