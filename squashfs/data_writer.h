/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The data pass (data_writer.c, with dedup_writer.c): every regular file's
 * blocks and tails, in data order, through the block processor and the
 * fragment packer.  Its results are the per-file records the inode table
 * writer reads, and the fragment table. */
#ifndef FF_SQUASHFS_DATA_WRITER_H
#define FF_SQUASHFS_DATA_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/hmap.h"
#include "squashfs/block_proc.h"
#include "squashfs/file_list.h"
#include "squashfs/fragment_writer.h"
#include "squashfs/node_info.h"
#include "squashfs/readahead.h"
#include "squashfs/sink.h"
#include "squashfs/writer.h"

/* dedup_writer.c's state for files smaller than a block */
struct sqfs_dedup_small {
	uint8_t *seen;        /* by size: 0, 1 or 2 (more than one) files */
	struct ff_hset set;   /* first copies among those read, by data index,
				 hashed by size and crc */
	struct sqfs_file_cur cur; /* the set's files looked at again */
	uint8_t *cmp;         /* block_size bytes: an earlier copy read back */
};

struct sqfs_data_writer {
	/* set by the caller */
	const struct ff_tree *tree;
	const struct ff_sqfs_write_opts *o;
	struct ff_sqfs_write_stats *st;
	struct sqfs_sink *sink;
	uint32_t block_size;
	unsigned jobs;
	/* the pass's own */
	struct sqfs_frag_writer frags;
	struct sqfs_block_proc *bp;
	struct sqfs_readahead *ra;
	struct sqfs_file_list list;     /* regular files (primaries), data order;
					   freed at the end of sqfs_data_write */
	struct sqfs_file_cur cur;       /* the data pass's place in it */
	struct sqfs_file_data *fdata;   /* by ff_node.index (sqfs_fdata): no
					   per-node map to a data position */
	struct ff_vec sizes;            /* uint32_t *: the files' block sizes
					   (sqfs_fd_sizes) */
	struct sqfs_dedup_small small;
	uint8_t *small_buf;             /* a small candidate's bytes */
	size_t n_files;
	uint64_t bytes_done, bytes_total;
};

/* File i in data order, from the data pass's cursor (the main thread's). */
static inline struct ff_node *sqfs_file(struct sqfs_data_writer *w, size_t i)
{
	return sqfs_file_at(&w->list, &w->cur, i);
}

/* The file record of n (during sqfs_data_write). */
static inline struct sqfs_file_data *sqfs_fdata(const struct sqfs_data_writer *w,
						const struct ff_node *n)
{
	return &w->fdata[n->index];
}

/* Every file's blocks and tails, in data order. */
int sqfs_data_write(struct sqfs_data_writer *w, struct ff_err *err);
/* The per-file records, wanted only until the inodes are written: freed
 * then, before the tables after them are built (8 bytes a node, and the
 * few block-size arrays). */
void sqfs_files_free(struct sqfs_data_writer *w);
/* The above and the fragment packer. */
void sqfs_data_free(struct sqfs_data_writer *w);

/* dedup_writer.c: sqfs_fdata(w, n)->dup_of set when file n has the same
 * content as an earlier file in data order (always a first copy, never a
 * chain).  sqfs_dedup decides the files of a block or more up front; the
 * smaller ones are decided one by one in data order by the data pass. */
int sqfs_dedup(struct sqfs_data_writer *w, struct ff_err *err);
/* Counts the sizes below a block (nothing under --no-dedup). */
int sqfs_dedup_small_init(struct sqfs_data_writer *w, struct ff_err *err);
/* 1 when a file of this size is a candidate for sqfs_dedup_small. */
int sqfs_dedup_small_wanted(const struct sqfs_data_writer *w, uint64_t size);
/* File i (n)'s whole content is data: 1 when it duplicates an earlier
 * file (dup_of set), 0 when it is a first copy (remembered), -1 on an
 * error. */
int sqfs_dedup_small(struct sqfs_data_writer *w, size_t i, const struct ff_node *n,
		     const uint8_t *data, struct ff_err *err);
void sqfs_dedup_small_free(struct sqfs_data_writer *w);

#endif
