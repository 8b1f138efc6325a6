/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File contents of a finished tree, read ahead on a helper thread in the
 * tree's pre-order, in pieces of a fixed size. */
#ifndef FF_TREE_DATA_STREAM_H
#define FF_TREE_DATA_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "tree/tree.h"

struct ff_data_piece {
	const struct ff_node *node;
	uint64_t off;        /* a multiple of the piece size */
	const uint8_t *buf;  /* valid until the next ff_data_stream_next */
	size_t len;          /* piece size, less at the end of the file */
};

struct ff_data_stream;

/* Streams every node with `want(n)` true and a non-zero size, in pieces
 * of at most `piece_bytes`; a few dozen pieces are read ahead at most. */
struct ff_data_stream *ff_data_stream_new(const struct ff_tree *tree,
					  int (*want)(const struct ff_node *n),
					  size_t piece_bytes, struct ff_err *err);
/* The next piece, which must belong to n (the caller walks the same
 * order); -1 with the read error (naming the file) or a walk mismatch. */
int ff_data_stream_next(struct ff_data_stream *s, const struct ff_node *n,
			struct ff_data_piece *p, struct ff_err *err);
/* Stops the helper wherever it is; NULL is fine. */
void ff_data_stream_free(struct ff_data_stream *s);

#endif
