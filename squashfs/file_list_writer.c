/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The data pass's files in data order without a list (file_list.h). */
#include "squashfs/file_list.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#define MARK_SHIFT 6 /* a mark every 64 files: 1/8 byte a file */

static int is_data_file(const struct ff_node *n)
{
	return !ff_node_link(n) && S_ISREG(n->mode);
}

/* --sort: higher priority first, then the tree's order (node index) */
static int order_cmp(const void *a, const void *b, void *arg)
{
	const struct ff_tree *tree = arg;
	const struct ff_node *x = *(struct ff_node *const *)a, *y = *(struct ff_node *const *)b;
	int px = ff_tree_sort_priority(tree, x), py = ff_tree_sort_priority(tree, y);

	if (px != py)
		return px > py ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

int sqfs_file_list_make(struct sqfs_file_list *l, const struct ff_tree *tree,
			struct ff_err *err)
{
	size_t n = 0;
	int sorted = 1;

	*l = (struct sqfs_file_list){ .tree = tree };
	for (struct ff_node *x = ff_tree_root(tree); x; x = ff_tree_next(tree, x))
		if (is_data_file(x)) {
			n++;
			sorted &= ff_tree_sort_priority(tree, x) == 0;
		}
	if (sorted)
		l->marks = calloc((n >> MARK_SHIFT) + 1, sizeof(*l->marks));
	else
		l->files = calloc(n + 1, sizeof(*l->files));
	if (!l->marks && !l->files)
		return ff_err_set(err, ENOMEM, "out of memory for %zu files", n);
	for (struct ff_node *x = ff_tree_root(tree); x; x = ff_tree_next(tree, x)) {
		if (!is_data_file(x))
			continue;
		if (l->files)
			l->files[l->n] = x;
		else if (!(l->n & ((1u << MARK_SHIFT) - 1)))
			l->marks[l->n >> MARK_SHIFT] = x;
		l->n++;
	}
	if (l->files)
		qsort_r(l->files, n, sizeof(*l->files), order_cmp, (void *)tree);
	return 0;
}

struct ff_node *sqfs_file_at(const struct sqfs_file_list *l, struct sqfs_file_cur *cur,
			     size_t i)
{
	if (l->files)
		return l->files[i];
	if (!cur->n || cur->i > i || cur->i >> MARK_SHIFT != i >> MARK_SHIFT) {
		cur->n = l->marks[i >> MARK_SHIFT];
		cur->i = i & ~(((size_t)1 << MARK_SHIFT) - 1);
	}
	while (cur->i < i) {
		do
			cur->n = ff_tree_next(l->tree, cur->n);
		while (!is_data_file(cur->n));
		cur->i++;
	}
	return cur->n;
}

void sqfs_file_list_free(struct sqfs_file_list *l)
{
	free(l->files);
	free(l->marks);
	l->files = l->marks = NULL;
}
