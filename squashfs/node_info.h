/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The writer's per-node records, indexed by ff_node.index: what the table
 * writers learn about each inode (its number and reference) and, for a
 * regular file, where its data went.  Both are held for every node at
 * once (ten million tar members, issue 33): indices instead of pointers,
 * no padding, 10 and 16 bytes.  Xattr ids are kept apart, only when some
 * node has xattrs (writer.c). */
#ifndef FF_SQUASHFS_NODE_INFO_H
#define FF_SQUASHFS_NODE_INFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tree/tree.h"

/* Read and set through sqfs_ni_*: the 48-bit inode reference (a 32-bit
 * table offset and a 16-bit block offset, all the format has) and the
 * inode number in 16-bit words, 10 bytes where a uint64_t and two
 * uint32_t were 16 (60 MB at ten million nodes). */
struct sqfs_node_info {
	uint16_t ref[3];      /* inode reference once written, low word first */
	uint16_t ino[2];      /* inode number, 0 until numbered */
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

static inline uint32_t sqfs_ni_ino(const struct sqfs_node_info *ni)
{
	return (uint32_t)ni->ino[0] | (uint32_t)ni->ino[1] << 16;
}

static inline void sqfs_ni_set_ino(struct sqfs_node_info *ni, uint32_t ino)
{
	ni->ino[0] = (uint16_t)ino;
	ni->ino[1] = (uint16_t)(ino >> 16);
}

struct sqfs_file_data {
	uint32_t *sizes;      /* on-disk size of each block, with the raw bit;
				 0 for a sparse block (which stands for
				 block_size bytes, or the rest of the file).
				 NULL for most small files; else made by
				 sqfs_fd_sizes_new, after three words that
				 hold the block count and the blocks' start
				 (sqfs_fd_n_blocks, sqfs_fd_blocks_start): a
				 file without blocks needs none (issue 33) */
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment;
				 SQFS_FD_DUP for a duplicate (sqfs_fd_dup_of) */
	uint32_t frag_offset; /* a duplicate's: the node index of the earlier
				 file in data order with the same content.  A
				 duplicate has no fragment of its own, so the
				 two share a word: 16 bytes, not 24 */
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

/* Blocks in the sizes array: 0 without one. */
static inline uint32_t sqfs_fd_n_blocks(const struct sqfs_file_data *fd)
{
	return fd->sizes ? fd->sizes[-3] : 0;
}

/* Only with a sizes array, n at most the count it was made for. */
static inline void sqfs_fd_set_n_blocks(struct sqfs_file_data *fd, uint32_t n)
{
	fd->sizes[-3] = n;
}

/* Where a file's blocks start in the image: 0 without a sizes array. */
static inline uint64_t sqfs_fd_blocks_start(const struct sqfs_file_data *fd)
{
	return fd->sizes ? (uint64_t)fd->sizes[-2] | (uint64_t)fd->sizes[-1] << 32 : 0;
}

static inline void sqfs_fd_set_blocks_start(struct sqfs_file_data *fd, uint64_t start)
{
	fd->sizes[-2] = (uint32_t)start;
	fd->sizes[-1] = (uint32_t)(start >> 32);
}

/* fd->sizes: room for n zeroed sizes after the three header words, the
 * block count n_blocks (0, -1 when out of memory); sqfs_fd_sizes_free
 * releases it. */
static inline int sqfs_fd_sizes_new(struct sqfs_file_data *fd, size_t n, uint32_t n_blocks)
{
	uint32_t *p = calloc(n + 3, sizeof(*p));

	if (!p)
		return -1;
	fd->sizes = p + 3;
	fd->sizes[-3] = n_blocks;
	return 0;
}

static inline void sqfs_fd_sizes_free(struct sqfs_file_data *fd)
{
	if (fd->sizes)
		free(fd->sizes - 3);
	fd->sizes = NULL;
}

/* The record of n's inode: a hard link shares its primary's. */
static inline struct sqfs_node_info *sqfs_info_of(struct sqfs_node_info *info,
						  const struct ff_node *n)
{
	return &info[(n->link ? n->link : n)->index];
}

/* Path of a node for messages ("/" for the root; node_name.c). */
const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap);

#endif
