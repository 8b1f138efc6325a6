/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The data pass's files in data order (file_list_writer.c).  Without a
 * --sort priority the data order is the tree's pre-order, so no list of
 * node pointers is kept (8 bytes a file, 76 MiB at ten million tar
 * members, issue 33): every 64th file is marked, and each reader walks
 * the tree from its own cursor, one step a file when it goes in order. */
#ifndef FF_SQUASHFS_FILE_LIST_H
#define FF_SQUASHFS_FILE_LIST_H

#include <stddef.h>

#include "common/error.h"
#include "tree/tree.h"

struct sqfs_file_list {
	const struct ff_tree *tree;
	struct ff_node **files;   /* data order, when --sort asks for another
				     order than the tree's; else NULL */
	struct ff_node **marks;   /* else: file k * 64 */
	size_t n;                 /* regular files (primaries) */
};

/* One reader's place: file i is n.  A zeroed cursor is at no file.  A
 * cursor belongs to one thread. */
struct sqfs_file_cur {
	struct ff_node *n;
	size_t i;
};

/* The regular files of the (finished) tree that are not hard-link names,
 * in data order: --sort priorities first (higher first), then pre-order. */
int sqfs_file_list_make(struct sqfs_file_list *l, const struct ff_tree *tree,
			struct ff_err *err);
/* File i (< l->n), from cur: one tree step after file i - 1, at most 63
 * from a mark otherwise. */
struct ff_node *sqfs_file_at(const struct sqfs_file_list *l, struct sqfs_file_cur *cur,
			     size_t i);
void sqfs_file_list_free(struct sqfs_file_list *l);

#endif
