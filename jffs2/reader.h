/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The JFFS2 reader: common/fs.h over a scanned and built image. */
#ifndef FF_JFFS2_READER_H
#define FF_JFFS2_READER_H

#include <pthread.h>

#include "common/bsrc.h"
#include "common/fs.h"
#include "jffs2/tree.h"

struct j2fs {
	struct ff_fs fs;
	struct j2_scan s;
	struct j2_tree t;
	/* The last node decompressed, for reads that walk a node in
	 * several calls (FUSE reads 4-128 KiB at a time). */
	pthread_mutex_t lock;
	uint64_t cache_pos;
	uint8_t *cache;
	size_t cache_len;
	/* A window of the image's bytes as stored (reader.c). */
	uint8_t *blk;
	uint64_t blk_pos;
	uint32_t blk_len;
};

int ff_jffs2_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err);

/* The decompressed data of node r into out (r->dsize bytes); 0, or -EIO
 * after logging what is wrong, or -ENOMEM. */
int j2_node_data(struct j2fs *j, const struct j2_inode_rec *r, uint8_t *out,
		 struct ff_err *err);

void j2_info(struct j2fs *j, ff_info_fn fn, void *ctx);
long j2_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx);
long j2_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx);

#endif
