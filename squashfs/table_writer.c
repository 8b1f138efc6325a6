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

int sqfs_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx, const uint8_t *data,
		     size_t len, const uint8_t *prefix, size_t prefix_len, uint64_t *index_pos,
		     struct ff_err *err)
{
	struct sqfs_meta_writer *mw = malloc(sizeof(*mw));
	uint64_t start;
	uint8_t *list = NULL;
	int ret = -1;

	if (!mw)
		return ff_err_set(err, ENOMEM, "table: out of memory");
	sqfs_meta_init(mw, ctx);
	if (sqfs_meta_write(mw, data, len, err) < 0 || sqfs_meta_emit(s, mw, &start, err) < 0)
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
	sqfs_meta_free(mw);
	free(mw);
	return ret;
}
