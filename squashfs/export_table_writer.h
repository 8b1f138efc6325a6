/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The NFS export table (export_table_writer.c): the inode reference of
 * every inode number, gathered from the per-node records once every inode
 * is written. */
#ifndef FF_SQUASHFS_EXPORT_TABLE_WRITER_H
#define FF_SQUASHFS_EXPORT_TABLE_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "compress/compress.h"
#include "squashfs/node_info.h"
#include "squashfs/sink.h"
#include "tree/tree.h"

int sqfs_export_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx,
			    const struct ff_tree *tree, struct sqfs_node_info *info,
			    uint32_t inode_count, uint64_t *pos, struct ff_err *err);

#endif
