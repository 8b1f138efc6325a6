/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A tree the caller fills in: the public face of the tree's node
 * operations, for libflashfs users and the bench (which describes a corpus
 * it already holds in memory).  Paths are normalised as spec-file paths
 * are, so "./a//b/" and "a/b" name the same entry. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A normalised copy of a caller's path for a tree still open; NULL with
 * err. */
static char *normalised(const struct ff_tree *tree, const char *path, struct ff_err *err)
{
	char *p;

	if (ff_tree_check_open(tree, err))
		return NULL;
	p = strdup(path);
	if (!p)
		ff_err_set(err, ENOMEM, "out of memory");
	else if (ff_path_normalise(p, err)) {
		free(p);
		p = NULL;
	}
	return p;
}

struct ff_node *ff_tree_put_entry(struct ff_tree *tree, const char *path, uint32_t mode,
				  struct ff_err *err)
{
	char *p = normalised(tree, path, err);
	struct ff_node *n = p ? ff_tree_put_path(tree, p, mode, err) : NULL;

	if (!n)
		ff_err_prefix(err, "%s", path);
	free(p);
	return n;
}

struct ff_node *ff_tree_put_hardlink(struct ff_tree *tree, const char *path,
				     const char *target, struct ff_err *err)
{
	char *p = normalised(tree, path, err);
	struct ff_node *n = p ? ff_tree_put_link(tree, p, target, err) : NULL;

	if (!n)
		ff_err_prefix(err, "%s", path);
	free(p);
	return n;
}

struct ff_node *ff_tree_find_entry(struct ff_tree *tree, const char *path, struct ff_err *err)
{
	char *p = normalised(tree, path, err);
	struct ff_node *n = p ? ff_tree_lookup(tree, p) : NULL;

	if (p && !n)
		ff_err_set(err, ENOENT, "no such entry");
	if (!n)
		ff_err_prefix(err, "%s", path);
	free(p);
	return n ? ff_node_primary(n) : NULL;
}

int ff_tree_set_symlink(struct ff_node *n, const char *target, struct ff_err *err)
{
	if (!S_ISLNK(n->mode))
		return ff_err_set(err, EINVAL, "%s: not a symlink", ff_node_name(n));
	return ff_node_set_target(n, target, strlen(target), err);
}

int ff_tree_set_mem(struct ff_node *n, const void *buf, uint64_t len, struct ff_err *err)
{
	if (!S_ISREG(n->mode) || ff_node_link(n))
		return ff_err_set(err, EINVAL, "%s: not a regular file", ff_node_name(n));
	if (len && !buf)
		return ff_err_set(err, EINVAL, "%s: no content for %llu bytes", ff_node_name(n),
				  (unsigned long long)len);
	ff_node_clear_src(n);
	n->src_kind = FF_SRC_MEM;
	n->mem = buf;
	n->size = len;
	return 0;
}

int ff_tree_set_host_file(struct ff_node *n, const char *host_path, uint64_t len,
			  struct ff_err *err)
{
	if (!S_ISREG(n->mode) || ff_node_link(n))
		return ff_err_set(err, EINVAL, "%s: not a regular file", ff_node_name(n));
	if (ff_node_set_src(n, host_path, err))
		return -1;
	n->size = len;
	return 0;
}

int ff_tree_set_xattr(struct ff_node *n, const char *name, const void *value, size_t len,
		      struct ff_err *err)
{
	return ff_node_set_xattr(n, name, value, len, err);
}
