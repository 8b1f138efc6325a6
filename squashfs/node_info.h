/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The writer's per-node records, indexed by ff_node.index: what the table
 * writers learn about each inode (its number and reference) and, for a
 * regular file, where its data went.  Both are held for every node at
 * once (ten million tar members, issue 33): indices instead of pointers,
 * no padding, 10 and 12 bytes.  Xattr ids are kept apart, only when some
 * node has xattrs (writer.c). */
#ifndef FF_SQUASHFS_NODE_INFO_H
#define FF_SQUASHFS_NODE_INFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/vec.h"
#include "tree/tree.h"

/* Read and set through sqfs_ni_*: the 48-bit inode reference (a 32-bit
 * table offset and a 16-bit block offset, all the format has) in 16-bit
 * words, 6 bytes where a uint64_t was 8.  The inode number is in the
 * node's builder scratch word (sqfs_ino): 4 bytes an entry less at the
 * inode pass, the build's peak at ten million tar members (issue 33). */
struct sqfs_node_info {
	uint16_t ref[3];      /* inode reference once written, low word first */
};

static inline uint64_t sqfs_ni_ref(const struct sqfs_node_info *ni)
{
	return (uint64_t)ni->ref[0] | (uint64_t)ni->ref[1] << 16 | (uint64_t)ni->ref[2] << 32;
}

/* ref fits 48 bits: the inode table of a squashfs image ends below 4 GiB */
static inline void sqfs_ni_set_ref(struct sqfs_node_info *ni, uint64_t ref)
{
	ni->ref[0] = (uint16_t)ref;
	ni->ref[1] = (uint16_t)(ref >> 16);
	ni->ref[2] = (uint16_t)(ref >> 32);
}

/* n's inode number (a hard link's is its primary's), 0 until numbered:
 * kept in the primary's ff_node.priv, which the writer clears before it
 * numbers and when it is done (sqfs_inodes_clear). */
static inline uint32_t sqfs_ino(const struct ff_node *n)
{
	return ff_node_primary(n)->priv;
}

static inline void sqfs_set_ino(const struct ff_node *n, uint32_t ino)
{
	ff_node_primary(n)->priv = ino; /* the builder's scratch word */
}

/* A file's record is 12 bytes: its block sizes, which most small files
 * have none of, are arrays found through a table of the writer's
 * (struct ff_vec of uint32_t *, sqfs_fd_sizes), not a pointer in every
 * record (4 bytes a file less, 38 MB at ten million, issue 33). */
struct sqfs_file_data {
	uint32_t blocks;      /* 0: no sizes array; else 1 + its place in the
				 table.  The array holds the on-disk size of
				 each block, with the raw bit; 0 for a sparse
				 block (which stands for block_size bytes, or
				 the rest of the file).  Three words in front
				 of it hold the block count and the blocks'
				 start (sqfs_fd_n_blocks, sqfs_fd_blocks_start) */
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment;
				 SQFS_FD_DUP for a duplicate (sqfs_fd_dup_of) */
	uint32_t frag_offset; /* a duplicate's: the node index of the earlier
				 file in data order with the same content.  A
				 duplicate has no fragment of its own, so the
				 two share a word */
};

/* frag_index of a duplicate: no fragment table reaches 2^32 - 2 entries */
#define SQFS_FD_DUP 0xfffffffeu

/* The node index of the first copy of fd's content, 0 for a first copy. */
static inline uint32_t sqfs_fd_dup_of(const struct sqfs_file_data *fd)
{
	return fd->frag_index == SQFS_FD_DUP ? fd->frag_offset : 0;
}

static inline void sqfs_fd_set_dup(struct sqfs_file_data *fd, uint32_t first)
{
	fd->frag_index = SQFS_FD_DUP;
	fd->frag_offset = first;
}

/* fd's block sizes in table t (uint32_t * each), NULL without an array. */
static inline uint32_t *sqfs_fd_sizes(const struct ff_vec *t, const struct sqfs_file_data *fd)
{
	return fd->blocks ? *FF_VEC_AT(t, uint32_t *, fd->blocks - 1) : NULL;
}

/* Blocks in the sizes array: 0 without one. */
static inline uint32_t sqfs_fd_n_blocks(const struct ff_vec *t, const struct sqfs_file_data *fd)
{
	const uint32_t *s = sqfs_fd_sizes(t, fd);

	return s ? s[-3] : 0;
}

/* Only with a sizes array, n at most the count it was made for. */
static inline void sqfs_fd_set_n_blocks(const struct ff_vec *t, struct sqfs_file_data *fd,
					uint32_t n)
{
	sqfs_fd_sizes(t, fd)[-3] = n;
}

/* Where a file's blocks start in the image: 0 without a sizes array. */
static inline uint64_t sqfs_fd_blocks_start(const struct ff_vec *t,
					    const struct sqfs_file_data *fd)
{
	const uint32_t *s = sqfs_fd_sizes(t, fd);

	return s ? (uint64_t)s[-2] | (uint64_t)s[-1] << 32 : 0;
}

static inline void sqfs_fd_set_blocks_start(const struct ff_vec *t, struct sqfs_file_data *fd,
					    uint64_t start)
{
	uint32_t *s = sqfs_fd_sizes(t, fd);

	s[-2] = (uint32_t)start;
	s[-1] = (uint32_t)(start >> 32);
}

/* fd's sizes array in t: room for n zeroed sizes after the three header
 * words, the block count n_blocks (0, -1 when out of memory);
 * sqfs_fd_table_free releases them all. */
static inline int sqfs_fd_sizes_new(struct ff_vec *t, struct sqfs_file_data *fd, size_t n,
				    uint32_t n_blocks)
{
	uint32_t *p = calloc(n + 3, sizeof(*p));

	if (!p || t->len >= UINT32_MAX - 1) {
		free(p);
		return -1;
	}
	p += 3;
	if (ff_vec_push(t, &p) < 0) {
		free(p - 3);
		return -1;
	}
	p[-3] = n_blocks;
	fd->blocks = (uint32_t)t->len;
	return 0;
}

static inline void sqfs_fd_table_free(struct ff_vec *t)
{
	for (size_t i = 0; i < t->len; i++)
		free(*FF_VEC_AT(t, uint32_t *, i) - 3);
	ff_vec_free(t);
}

/* The record of n's inode: a hard link shares its primary's. */
static inline struct sqfs_node_info *sqfs_info_of(struct sqfs_node_info *info,
						  const struct ff_node *n)
{
	return &info[(ff_node_primary(n))->index];
}

/* Path of a node for messages ("/" for the root; node_name.c). */
const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap);

#endif
