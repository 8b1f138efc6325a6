/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Writing a CramFS image from a finished source tree (tree/tree.h), laid
 * out byte for byte as util-linux's mkfs.cramfs lays out the same tree
 * with the same options: the listings breadth-first per directory with
 * the subdirectories' listings in `ls -UR` order, then the data of every
 * file and symlink in pre-order, one zlib stream (level 6) per block, a
 * file whose bytes equal an earlier file's or symlink's sharing its data,
 * the image padded to a whole block and its CRC in the superblock. */
#ifndef FF_CRAMFS_WRITER_H
#define FF_CRAMFS_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/warn.h"
#include "tree/tree.h"

struct ff_cramfs_write_opts {
	uint32_t blksize;      /* block (page) size: a power of two 512..65536 */
	int big_endian;
	uint32_t edition;      /* fsid.edition (-e) */
	const char *name;      /* volume name (-n), NULL: "Compressed" */
	int pad;               /* 512 zero bytes before the superblock (-p) */
	int holes;             /* all-zero blocks stored as holes (-z) */
	const char *insert;    /* a file whose bytes go after the superblock (-i) */
	unsigned threads;      /* compressing threads, 0: the CPUs (the image never
				* depends on it) */
	ff_warn_fn warn;
	void *warn_ctx;
};

struct ff_cramfs_write_stats {
	uint64_t bytes;        /* the image */
	uint32_t inodes;       /* fsid.files: entries and the root */
	uint32_t blocks;       /* fsid.blocks: blocks of stored data */
	uint32_t shared;       /* files and symlinks sharing earlier data */
	uint32_t holes;        /* blocks left as holes */
	uint32_t crc;
	unsigned warnings;     /* truncated names, sizes, owners, devices */
};

/* Writes the image to path (atomically: nothing is left on failure). */
int ff_cramfs_write(const struct ff_tree *tree, const struct ff_cramfs_write_opts *o,
		    const char *path, struct ff_cramfs_write_stats *st, struct ff_err *err);

#endif
