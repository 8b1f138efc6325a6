/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The inode table (inode_table_writer.c): numbers every inode, then writes
 * inodes and, through the directory writer, listings bottom-up; the root
 * is numbered last and written last. */
#ifndef FF_SQUASHFS_INODE_TABLE_WRITER_H
#define FF_SQUASHFS_INODE_TABLE_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/hmap.h"
#include "compress/compress.h"
#include "squashfs/dir_table_writer.h"
#include "squashfs/id_table_writer.h"
#include "squashfs/meta_writer.h"
#include "squashfs/node_info.h"
#include "tree/tree.h"

struct sqfs_inode_writer {
	struct sqfs_meta_writer meta;
	/* what the inodes are made from, set by sqfs_inode_writer_init */
	const struct ff_tree *tree;
	struct sqfs_node_info *info;          /* refs are filled in here */
	const uint32_t *xattr;                /* by ff_node.index; NULL: none */
	const struct sqfs_file_data *fdata;   /* by ff_node.index */
	const struct ff_vec *sizes;           /* their block sizes (sqfs_fd_sizes) */
	const struct sqfs_id_table *ids;
	struct sqfs_dir_writer *dirs;
	uint32_t block_size;
	uint32_t inode_count;
	struct ff_hmap linked_written;        /* hard-linked inodes already written */
	/* counted as written */
	uint32_t n_dirs, n_symlinks, n_special, n_hardlinks;
};

/* Numbers every inode of tree (pre-order by name, the root last) into
 * the nodes' priv (sqfs_ino); returns the inode count. */
uint32_t sqfs_inodes_number(const struct ff_tree *tree);
/* Every node's priv back to 0 (the builders' "unset"). */
void sqfs_inodes_clear(const struct ff_tree *tree);

void sqfs_inode_writer_init(struct sqfs_inode_writer *iw, struct ff_comp_ctx *ctx,
			    const struct ff_tree *tree, struct sqfs_node_info *info,
			    const struct sqfs_id_table *ids, struct sqfs_dir_writer *dirs,
			    uint32_t block_size, uint32_t inode_count);
/* Writes every inode, streaming the table to s right after what s holds
 * (the data).  fdata and sizes: the file records and their block sizes,
 * wanted only during this call. */
int sqfs_inode_writer_write(struct sqfs_inode_writer *iw, struct sqfs_sink *s,
			    const struct sqfs_file_data *fdata, const struct ff_vec *sizes,
			    struct ff_err *err);
/* The rest of the table at s; *start its position. */
int sqfs_inode_writer_emit(struct sqfs_inode_writer *iw, struct sqfs_sink *s,
			   uint64_t *start, struct ff_err *err);
void sqfs_inode_writer_free(struct sqfs_inode_writer *iw);

#endif
