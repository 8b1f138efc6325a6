/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs -sort files: "PATH PRIORITY" per line, priority -32768..32767,
 * higher placed first.  PATH is relative to the image root; a directory's
 * priority applies to everything below it unless a later line says
 * otherwise.  A path not in the tree is a warning, as in mksquashfs. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Nodes never move (slabs; the root is freed last), so their address
 * is the key. */
static int set_priority(struct ff_tree *tree, const struct ff_node *n, int16_t prio)
{
	if (ff_hmap_set(&tree->sort_prio, &n, sizeof(n), (uint64_t)(uint16_t)prio))
		return -1;
	for (uint32_t i = 0; i < n->n_children; i++)
		if (set_priority(tree, n->children[i], prio))
			return -1;
	return 0;
}

int ff_tree_sort_priority(const struct ff_tree *tree, const struct ff_node *n)
{
	uint64_t v;

	return tree->sort_prio.n && ff_hmap_find(&tree->sort_prio, &n, sizeof(n), &v)
		? (int16_t)(uint16_t)v : 0;
}

struct sort_ctx {
	struct ff_tree *tree;
	const char *path;
};

static int sort_line(void *ctx, const char *line, unsigned lineno, struct ff_err *err)
{
	const struct sort_ctx *c = ctx;
	struct ff_tree *tree = c->tree;
	struct ff_tokens t;
	struct ff_node *n;
	int64_t prio;
	int rc = -1;

	if (ff_tokenize(line, &t, err))
		goto out;
	rc = 0;
	if (t.n == 0)
		goto out;
	rc = -1;
	if (t.n != 2) {
		ff_err_set(err, EINVAL, "expected PATH PRIORITY, found %d words", t.n);
		goto out;
	}
	if (ff_parse_i64(t.v[1], &prio) || prio < -32768 || prio > 32767) {
		ff_err_set(err, ERANGE, "priority \"%s\" is not in -32768..32767", t.v[1]);
		goto out;
	}
	if (ff_path_normalise(t.v[0], err)) {
		ff_err_prefix(err, "\"%s\"", line);
		goto out;
	}
	rc = 0;
	n = ff_tree_lookup(tree, t.v[0]);
	if (n && set_priority(tree, n, (int16_t)prio))
		rc = ff_err_set(err, ENOMEM, "out of memory for sort priorities");
	else if (!n)
		ff_tree_warn(tree, FF_WARN_IGNORED, NULL, "%s:%u: \"%s\" is not in the image, ignored", c->path, lineno,
			     t.v[0]);
out:
	ff_tokens_free(&t);
	return rc;
}

int ff_tree_load_sort(struct ff_tree *tree, const char *path, struct ff_err *err)
{
	struct sort_ctx c = { .tree = tree, .path = path };

	if (ff_tree_check_open(tree, err))
		return -1;
	return ff_lines_each(path, sort_line, &c, err);
}
