/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The writer's per-node records, indexed by ff_node.index: what the table
 * writers learn about each inode (its number, xattr id, reference) and,
 * for a regular file, where its data went.  Both are held for every node
 * at once (a million files): indices instead of pointers and no padding
 * keep them at 16 and 32 bytes. */
#ifndef FF_SQUASHFS_NODE_INFO_H
#define FF_SQUASHFS_NODE_INFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "tree/tree.h"

struct sqfs_node_info {
	uint64_t ref;         /* inode reference once written */
	uint32_t ino;         /* inode number, 0 until numbered */
	uint32_t xattr;       /* xattr id or SQFS_INVALID_XATTR */
};

struct sqfs_file_data {
	uint32_t *sizes;      /* on-disk size of each block, with the raw bit;
				 0 for a sparse block (which stands for
				 block_size bytes, or the rest of the file).
				 NULL for most small files; else made by
				 sqfs_fd_sizes_new, after two words that hold
				 the blocks' start (sqfs_fd_blocks_start): a
				 file without blocks needs none, and so the
				 record is 24 bytes, not 32 (issue 33) */
	uint32_t n_blocks;
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment */
	uint32_t frag_offset;
	uint32_t dup_of;      /* node index of an earlier file in data order
				 with the same content, or 0 */
};

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

/* fd->sizes: n zeroed sizes after the start's two words (0, -1 when out
 * of memory); sqfs_fd_sizes_free releases it. */
static inline int sqfs_fd_sizes_new(struct sqfs_file_data *fd, size_t n)
{
	uint32_t *p = calloc(n + 2, sizeof(*p));

	if (!p)
		return -1;
	fd->sizes = p + 2;
	return 0;
}

static inline void sqfs_fd_sizes_free(struct sqfs_file_data *fd)
{
	if (fd->sizes)
		free(fd->sizes - 2);
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
