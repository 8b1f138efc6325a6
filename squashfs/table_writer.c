/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Lookup tables (fragment, export, id, xattr id): fixed-size entries in
 * metadata blocks followed by the uncompressed list of where each block
 * starts.  The list sits right after its blocks, which is what the kernel's
 * "each block at most 8194 bytes before the next, the last one before the
 * list" checks expect. */
#include "squashfs/table_writer.h"

#include <errno.h>
#include <stdlib.h>

#include "common/endian.h"
#include "squashfs/meta_writer.h"

struct sqfs_meta_writer *sqfs_table_begin(struct sqfs_sink *s, struct ff_comp_ctx *ctx,
					  struct ff_err *err)
{
	struct sqfs_meta_writer *mw = malloc(sizeof(*mw));

	if (!mw) {
		ff_err_set(err, ENOMEM, "table: out of memory");
		return NULL;
	}
	sqfs_meta_init(mw, ctx);
	/* the table starts where the sink is: its blocks can go there as
	 * they are made (the export table is 8 bytes an inode, 80 MB of
	 * blocks held at ten million entries otherwise, issue 33) */
	sqfs_meta_stream(mw, s);
	return mw;
}

void sqfs_table_abort(struct sqfs_meta_writer *mw)
{
	sqfs_meta_free(mw);
	free(mw);
}

int sqfs_table_end(struct sqfs_sink *s, struct sqfs_meta_writer *mw, const uint8_t *prefix,
		   size_t prefix_len, uint64_t *index_pos, struct ff_err *err)
{
	uint64_t start;
	uint8_t *list = NULL;
	int ret = -1;

	if (sqfs_meta_emit(s, mw, &start, err) < 0)
		goto out;
	list = malloc(mw->n_starts * 8 + 1);
	if (!list) {
		ff_err_set(err, ENOMEM, "table: out of memory");
		goto out;
	}
	for (size_t i = 0; i < mw->n_starts; i++)
		ff_put_le64(list + 8 * i, start + mw->starts[i]);
	*index_pos = s->pos;
	if (prefix_len && sqfs_sink_write(s, prefix, prefix_len, err) < 0)
		goto out;
	ret = sqfs_sink_write(s, list, mw->n_starts * 8, err);
out:
	free(list);
	sqfs_table_abort(mw);
	return ret;
}

int sqfs_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx, const uint8_t *data,
		     size_t len, const uint8_t *prefix, size_t prefix_len, uint64_t *index_pos,
		     struct ff_err *err)
{
	struct sqfs_meta_writer *mw = sqfs_table_begin(s, ctx, err);

	if (!mw)
		return -1;
	if (sqfs_meta_write(mw, data, len, err) < 0) {
		sqfs_table_abort(mw);
		return -1;
	}
	return sqfs_table_end(s, mw, prefix, prefix_len, index_pos, err);
}
