/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The id table (id_table_writer.c): every distinct uid and gid once, in
 * order of first use, so inodes store 16-bit indexes. */
#ifndef FF_SQUASHFS_ID_TABLE_WRITER_H
#define FF_SQUASHFS_ID_TABLE_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/hmap.h"
#include "common/vec.h"
#include "compress/compress.h"
#include "squashfs/sink.h"
#include "tree/tree.h"

struct sqfs_id_table {
	struct ff_hmap map;    /* id -> index */
	struct ff_vec ids;     /* uint32_t, in order of first use */
};

void sqfs_id_table_init(struct sqfs_id_table *t);
/* Adds n's id if new.  SquashFS has room for 65536 ids: the 65537th is
 * refused (EOVERFLOW, the message naming n, the id and the count). */
int sqfs_id_table_add(struct sqfs_id_table *t, const struct ff_node *n, uint32_t id,
		      struct ff_err *err);
uint32_t sqfs_id_table_count(const struct sqfs_id_table *t);
/* The index of an id added before. */
uint16_t sqfs_id_table_index(const struct sqfs_id_table *t, uint32_t id);
/* The table at the sink, compressed with ctx (stored when NULL). */
int sqfs_id_table_write(const struct sqfs_id_table *t, struct sqfs_sink *s,
			struct ff_comp_ctx *ctx, uint64_t *pos, struct ff_err *err);
void sqfs_id_table_free(struct sqfs_id_table *t);

#endif
