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
#include "cramfs/writer.h"

#define CW_NAME_MAX 255u /* mkfs.cramfs cuts longer names to this */

struct cw_ent {
	uint32_t pos;        /* where its inode is (absolute) */
	uint32_t size;       /* the inode's size field */
	uint32_t offset;     /* its listing or its data (absolute), 0 none */
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
	uint8_t *in, *z, *in2;   /* a block in, its stream out; a compare buffer */
	uint8_t *buf;            /* one file's table and blocks */
	size_t buf_cap;
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
