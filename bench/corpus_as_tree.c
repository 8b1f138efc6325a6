/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The corpus handed back to the tree model, so the writers can run
 * on it (layout.c).  Nodes are added in corpus order with their metadata
 * and xattrs; file contents reference the corpus data (no copy); extra
 * hard-link names come last, because a primary may follow its links in
 * pre-order. */
#include "bench/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "a/b/c" for node i, built from its parent's path. */
static char *node_path(const struct bench_corpus *c, char **paths, size_t i)
{
	const char *up = paths[c->nodes[i].parent];
	size_t n = strlen(up) + strlen(c->nodes[i].name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s%s%s", up, *up ? "/" : "", c->nodes[i].name);
	return p;
}

static int describe(const struct bench_corpus *c, const struct bench_node *b,
		    struct ff_node *n, struct ff_err *err)
{
	n->uid = b->uid;
	n->gid = b->gid;
	n->mtime = b->mtime;
	if (S_ISCHR(b->mode) || S_ISBLK(b->mode)) { /* else children or target */
		n->rdev_major = b->rdev_major;
		n->rdev_minor = b->rdev_minor;
	}
	n->dense = b->dense;
	if (S_ISDIR(b->mode))
		n->mode = b->mode;
	for (uint32_t k = 0; k < b->n_xattrs; k++)
		if (ff_tree_set_xattr(n, b->xattrs[k].name, b->xattrs[k].value,
				      b->xattrs[k].len, err))
			return -1;
	if (S_ISLNK(b->mode))
		return ff_tree_set_symlink(n, b->target ? b->target : "", err);
	if (S_ISREG(b->mode) && b->file >= 0)
		return ff_tree_set_mem(n, c->data + c->files[b->file].off,
				       c->files[b->file].size, err);
	return 0;
}

static int add_nodes(const struct bench_corpus *c, struct ff_tree *t, char **paths,
		     int links, struct ff_err *err)
{
	for (size_t i = 1; i < c->n_nodes; i++) {
		const struct bench_node *b = &c->nodes[i];
		struct ff_node *n;

		if ((b->link_of >= 0) != links)
			continue;
		if (links)
			n = ff_tree_put_hardlink(t, paths[i], paths[b->link_of], err);
		else
			n = ff_tree_put_entry(t, paths[i], b->mode, err);
		if (!n || (!links && describe(c, b, n, err)))
			return -1;
	}
	return 0;
}

static int fill(const struct bench_corpus *c, struct ff_tree *t, char **paths,
		struct ff_err *err)
{
	paths[0] = strdup("");
	if (!paths[0])
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	for (size_t i = 1; i < c->n_nodes; i++)
		if (!(paths[i] = node_path(c, paths, i)))
			return ff_err_set(err, ENOMEM, "bench: out of memory");
	if (describe(c, &c->nodes[0], ff_tree_root(t), err) ||
	    add_nodes(c, t, paths, 0, err) || add_nodes(c, t, paths, 1, err))
		return -1;
	return ff_tree_finish(t, err);
}

struct ff_tree *bench_corpus_as_tree(const struct bench_corpus *c, struct ff_err *err)
{
	struct ff_tree_opts o = { .force_uid = -1, .force_gid = -1, .all_time = -1,
				  .clamp_time = -1 };
	struct ff_tree *t = ff_tree_new(&o, err);
	char **paths = calloc(c->n_nodes + 1, sizeof(*paths));
	int rc = -1;

	if (!paths)
		ff_err_set(err, ENOMEM, "bench: out of memory");
	else if (t)
		rc = fill(c, t, paths, err);
	for (size_t i = 0; paths && i < c->n_nodes; i++)
		free(paths[i]);
	free(paths);
	if (rc) {
		ff_tree_free(t);
		return NULL;
	}
	return t;
}
