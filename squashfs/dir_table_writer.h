/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The directory table (dir_table_writer.c): one listing per directory, in
 * runs behind headers, with the index a large one needs.  The inodes of
 * a directory's entries must be written before its listing. */
#ifndef FF_SQUASHFS_DIR_TABLE_WRITER_H
#define FF_SQUASHFS_DIR_TABLE_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/vec.h"
#include "compress/compress.h"
#include "squashfs/meta_writer.h"
#include "squashfs/node_info.h"

struct sqfs_dir_writer {
	struct sqfs_meta_writer meta;
	struct sqfs_node_info *info;  /* by ff_node.index: numbers and refs */
};

/* Where a listing went, for its directory's inode. */
struct sqfs_dir_info {
	uint32_t block;
	uint16_t offset;
	uint32_t size;        /* listing bytes + 3 */
	struct ff_vec index;  /* bytes: the encoded directory index entries */
	uint32_t index_count;
	int extended;         /* large directory: extended inode, as mksquashfs */
};

void sqfs_dir_writer_init(struct sqfs_dir_writer *dw, struct ff_comp_ctx *ctx,
			  struct sqfs_node_info *info);
/* dir's listing; di is filled (free di->index with ff_vec_free). */
int sqfs_dir_write(struct sqfs_dir_writer *dw, const struct ff_node *dir,
		   struct sqfs_dir_info *di, struct ff_err *err);
/* The table at the sink; *start its position. */
int sqfs_dir_writer_emit(struct sqfs_dir_writer *dw, struct sqfs_sink *s, uint64_t *start,
			 struct ff_err *err);
void sqfs_dir_writer_free(struct sqfs_dir_writer *dw);

#endif
