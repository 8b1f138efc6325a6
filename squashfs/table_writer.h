/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Lookup tables (table_writer.c): fixed-size entries in metadata blocks
 * followed by the list of where each block starts (fragment, export, id
 * and xattr id tables). */
#ifndef FF_SQUASHFS_TABLE_WRITER_H
#define FF_SQUASHFS_TABLE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "compress/compress.h"
#include "squashfs/sink.h"

struct sqfs_meta_writer;

/* Writes `len` bytes of entries as metadata blocks (compressed with ctx,
 * stored when NULL), then `prefix` (may be empty) and the list of block
 * locations; *index_pos is where the prefix (or the list) starts. */
int sqfs_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx, const uint8_t *data,
		     size_t len, const uint8_t *prefix, size_t prefix_len, uint64_t *index_pos,
		     struct ff_err *err);

/* The same for a table made piece by piece: the entries go to the
 * returned writer with sqfs_meta_write, and its finished blocks straight
 * to s (nothing else may write to s until sqfs_table_end), so the table
 * is never held whole.  NULL with err when out of memory. */
struct sqfs_meta_writer *sqfs_table_begin(struct sqfs_sink *s, struct ff_comp_ctx *ctx,
					  struct ff_err *err);
/* Drops a table begun with sqfs_table_begin, after an error. */
void sqfs_table_abort(struct sqfs_meta_writer *mw);
/* The last block, prefix and the list, as sqfs_table_write; frees mw. */
int sqfs_table_end(struct sqfs_sink *s, struct sqfs_meta_writer *mw, const uint8_t *prefix,
		   size_t prefix_len, uint64_t *index_pos, struct ff_err *err);

#endif
