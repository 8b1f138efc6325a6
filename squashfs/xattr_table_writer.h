/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes (xattr_table_writer.c): each distinct set written
 * once to the key/value stream and given an id; the id table follows. */
#ifndef FF_SQUASHFS_XATTR_TABLE_WRITER_H
#define FF_SQUASHFS_XATTR_TABLE_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/warn.h"
#include "compress/compress.h"
#include "squashfs/sink.h"
#include "tree/tree.h"

struct sqfs_xattr_writer;

/* ctx compresses both the stream and the id table (NULL: stored); names
 * SquashFS cannot hold are warned about through warn (may be NULL). */
struct sqfs_xattr_writer *sqfs_xattr_writer_new(struct ff_comp_ctx *ctx, ff_warn_fn warn,
						void *warn_ctx, struct ff_err *err);
/* n's set: *id is its xattr id, or SQFS_INVALID_XATTR when n keeps none. */
int sqfs_xattr_writer_add(struct sqfs_xattr_writer *x, const struct ff_node *n, uint32_t *id,
			  struct ff_err *err);
uint32_t sqfs_xattr_writer_count(const struct sqfs_xattr_writer *x);
/* Writes the key/value stream, the id table and its header; *pos is the
 * header (SQFS_INVALID_BLK when no set was added). */
int sqfs_xattr_writer_write(struct sqfs_xattr_writer *x, struct sqfs_sink *s, uint64_t *pos,
			    struct ff_err *err);
void sqfs_xattr_writer_free(struct sqfs_xattr_writer *x);

#endif
