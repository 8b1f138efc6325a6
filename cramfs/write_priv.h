/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* What the writer's parts share: the entries (one per tree node, by the
 * node's pre-order index), the header (pad, superblock, inserted file,
 * listings) kept in memory until the end, and the data stream. */
#ifndef FF_CRAMFS_WRITE_PRIV_H
#define FF_CRAMFS_WRITE_PRIV_H

#include <stdint.h>
#include <zlib.h>

#include "common/hmap.h"
#include "common/outfile.h"
#include "common/pool.h"
#include "common/vec.h"
#include "cramfs/writer.h"

#define CW_NAME_MAX 255u /* mkfs.cramfs cuts longer names to this */

struct cw_ent {
	uint32_t pos;        /* where its inode is (absolute) */
	uint32_t size;       /* the inode's size field */
	uint32_t offset;     /* its listing or its data (absolute), 0 none */
};

/* One block of an entry, or (len 0) an entry sharing same's data. */
struct cw_item {
	const struct ff_node *n, *same;
	uint32_t block, blocks, len; /* block of blocks, its bytes in */
	uint8_t *in, *out;           /* its slot: the bytes, their stream */
	uint32_t zlen;               /* the stream's length */
	uint8_t hole, failed;
};

/* What a worker takes at once: a few items, up to CW_BATCH_BYTES of
 * blocks, so that the pool's locks and wake-ups are paid per batch and
 * not per 4 KiB block. */
#define CW_BATCH_BYTES 32768u
#define CW_BATCH_MAX (CW_BATCH_BYTES / 512)
struct cw_job {
	uint32_t count;
	struct cw_item it[CW_BATCH_MAX];
};

struct cw_zs {                       /* a worker's deflate state */
	z_stream s;
	int ready;
};

struct cw {
	const struct ff_tree *tree;
	const struct ff_cramfs_write_opts *o;
	struct ff_cramfs_write_stats *st;
	struct cw_ent *e;        /* by node index */
	uint32_t n;              /* nodes, root included */
	uint8_t *hdr;            /* [0, hdr_len): pad, super, insert, listings */
	uint32_t hdr_len, listings_at, root_size;
	uint64_t pos;            /* end of what is written (absolute) */
	uLong crc;               /* of the bytes from hdr_len to pos */
	struct ff_outfile out;
	struct ff_hmap sizes;    /* data size -> entries with it */
	struct ff_hmap reps;     /* (size, crc, k) -> node index of a distinct content */
	uint8_t *in2;            /* a compare buffer */
	struct ff_vec buf;       /* bytes: one entry's table and blocks so far */
	struct ff_pool *pool;    /* the compressing workers, ordered */
	struct cw_zs *zs;        /* by worker */
	unsigned n_zs;
	uint8_t *slots;          /* per job per item 3 blocks: one in, two out */
	size_t queue;            /* jobs in flight at most */
	uint32_t per_job;        /* items per job */
	struct cw_job batch;     /* the one being filled */
	uint64_t submitted;      /* jobs so far: the next one's slots */
	int failed;              /* a retired job failed: drop the rest */
};

const struct ff_node *cw_meta(const struct ff_node *n);
/* The stored name length (cut to CW_NAME_MAX) and its padded bytes. */
uint32_t cw_name_len(const struct ff_node *n);
uint32_t cw_name_bytes(const struct ff_node *n);

/* Entries' sizes, inode places and listing offsets; the header's length. */
int cw_plan(struct cw *w, struct ff_err *err);
/* Inodes and names into the header. */
void cw_fill_listings(struct cw *w);
/* Every file's and symlink's data after the header. */
int cw_write_data(struct cw *w, struct ff_err *err);
/* The pool (write_blocks.c): start it; the next item with its slot, zero
 * but for in and out (NULL when an earlier job, retired to make room,
 * failed: err names its entry); count that item in, the batch queued when
 * full; queue what is left, retire and lay out every job (-1 when one
 * failed); free it all. */
int cw_pipe_start(struct cw *w, struct ff_err *err);
struct cw_item *cw_pipe_item(struct cw *w, struct ff_err *err);
void cw_pipe_add(struct cw *w);
int cw_pipe_drain(struct cw *w, struct ff_err *err);
void cw_pipe_stop(struct cw *w);
/* len zero bytes into the data stream. */
int cw_zeros(struct cw *w, uint64_t len, struct ff_err *err);
/* The entry's data size (0: none) and whether an earlier one shares it. */
uint32_t cw_data_size(const struct cw *w, const struct ff_node *n);
int cw_find_same(struct cw *w, const struct ff_node *n, const struct ff_node **same,
		 struct ff_err *err);
/* Up to len bytes of the entry's content from off (a symlink's target). */
int cw_content(struct cw *w, const struct ff_node *n, struct ff_data **d, uint8_t *buf,
	       uint32_t len, uint64_t off, struct ff_err *err);

#endif
