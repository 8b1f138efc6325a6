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

#include "tree/tree.h"

struct sqfs_node_info {
	uint64_t ref;         /* inode reference once written */
	uint32_t ino;         /* inode number, 0 until numbered */
	uint32_t xattr;       /* xattr id or SQFS_INVALID_XATTR */
};

struct sqfs_file_data {
	uint64_t blocks_start;
	uint32_t *sizes;      /* on-disk size of each block, with the raw bit;
				 0 for a sparse block (which stands for
				 block_size bytes, or the rest of the file) */
	uint32_t n_blocks;
	uint32_t frag_index;  /* SQFS_INVALID_FRAG when no tail fragment */
	uint32_t frag_offset;
	uint32_t dup_of;      /* node index of an earlier file in data order
				 with the same content, or 0 */
};

/* The record of n's inode: a hard link shares its primary's. */
static inline struct sqfs_node_info *sqfs_info_of(struct sqfs_node_info *info,
						  const struct ff_node *n)
{
	return &info[(n->link ? n->link : n)->index];
}

/* Path of a node for messages ("/" for the root; node_name.c). */
const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap);

#endif
