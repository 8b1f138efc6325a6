/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBIFS builder: a finished source tree (tree/tree.h) -> a bare UBIFS
 * image (LEB 0 .. leb_cnt-1, leb_cnt * leb_size bytes), as mkfs.ubifs
 * makes one: superblock, two master nodes, a log holding one commit-start
 * node, the LEB properties tree, an empty orphan area, then the main area
 * (data, inode and entry nodes; one empty LEB for the garbage collector;
 * the index).  The kernel mounts it without replaying anything.
 *
 * Deterministic: the bytes depend only on the tree and the options (data
 * blocks are compressed by the worker pool but placed in tree order; the
 * UUID is a hash of the main area unless one is given). */
#ifndef FF_UBIFS_WRITER_H
#define FF_UBIFS_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/outfile.h"
#include "tree/tree.h"

enum { FF_UBIFS_COMPR_NONE, FF_UBIFS_COMPR_LZO, FF_UBIFS_COMPR_ZLIB, FF_UBIFS_COMPR_ZSTD };

struct ff_ubifs_write_opts {
	uint32_t min_io, leb_size, max_leb_cnt; /* required */
	uint64_t jrn_size;      /* journal (max_bud_bytes); 0: mkfs.ubifs' default */
	uint64_t reserved;      /* space reserved for the super-user (before overhead) */
	int compr;              /* FF_UBIFS_COMPR_* */
	int favor_lzo;          /* lzo, or zlib where it is favor_percent % smaller */
	uint32_t favor_percent; /* default 20 */
	uint32_t fanout;        /* index fanout; 0: 8 */
	int space_fixup;
	int key_hash;           /* 0 r5, 1 test */
	uint32_t orph_lebs;     /* 0: 1 */
	uint32_t log_lebs;      /* 0: mkfs.ubifs' default */
	int have_uuid;
	uint8_t uuid[16];
	unsigned threads;       /* compression workers; 0: 1 */
	/* Set: the image is kept unnamed here (ff_outfile_detach) instead of
	 * linked at the path, which then only names it in messages. */
	struct ff_outfile_kept *keep;
};

struct ff_ubifs_write_stats {
	uint32_t leb_cnt, main_lebs, log_lebs, lpt_lebs, orph_lebs, idx_lebs;
	uint64_t max_bud_bytes, bytes, inodes, data_nodes, data_bytes, stored_bytes;
	int big_lpt;
	uint8_t uuid[16];
};

/* Fills in the defaults and checks the options as mkfs.ubifs does; err
 * names the option and the limit. */
int ff_ubifs_write_check(struct ff_ubifs_write_opts *o, struct ff_err *err);

/* Writes the image to path (atomically: nothing is left on failure). */
int ff_ubifs_write(const struct ff_tree *t, const struct ff_ubifs_write_opts *o,
		   const char *path, struct ff_ubifs_write_stats *st, struct ff_err *err);

#endif
