/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Paths given by archives and description files: normalising them and
 * finding (or creating) their parent directory. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Copy one component at *src to dst; returns its length. */
static size_t component(const char **src, char *dst)
{
	size_t len = strcspn(*src, "/");

	memmove(dst, *src, len);
	*src += len;
	return len;
}

int ff_path_normalise(char *path, struct ff_err *err)
{
	const char *src = path;
	char *dst = path;

	while (*src) {
		size_t len;

		while (*src == '/')
			src++;
		if (!*src)
			break;
		if (dst != path)
			*dst++ = '/';
		len = component(&src, dst);
		if (len == 1 && dst[0] == '.') {
			dst -= dst != path; /* drop the separator we wrote */
			continue;
		}
		if (len == 2 && dst[0] == '.' && dst[1] == '.')
			return ff_err_set(err, EINVAL, "path contains a \"..\" component");
		if (len > FF_NAME_MAX)
			return ff_err_set(err, ENAMETOOLONG, "name \"%.40s...\" is %zu bytes (max %d)",
					  dst, len, FF_NAME_MAX);
		dst += len;
	}
	*dst = '\0';
	return 0;
}

struct ff_node *ff_tree_parent_of(struct ff_tree *tree, const char *path, int create,
				  const char **base, struct ff_err *err)
{
	struct ff_node *dir = tree->root;
	const char *p = path;

	for (;;) {
		const char *slash = strchr(p, '/');
		struct ff_node *next;
		size_t len;

		if (!slash)
			break;
		len = (size_t)(slash - p);
		next = ff_tree_child(tree, dir, p, len);
		if (!next && !create) {
			ff_err_set(err, ENOENT, "parent directory \"%.*s\" does not exist",
				   (int)(slash - path), path);
			return NULL;
		}
		if (!next) {
			next = ff_tree_add_child(tree, dir, p, len, S_IFDIR | 0755, err);
			if (!next)
				return NULL;
			ff_tree_implied_dir(tree, next);
		}
		if (!S_ISDIR(next->mode)) {
			ff_err_set(err, ENOTDIR, "\"%.*s\" is not a directory",
				   (int)(slash - path), path);
			return NULL;
		}
		dir = next;
		p = slash + 1;
	}
	*base = p;
	return dir;
}

struct ff_node *ff_tree_put_child(struct ff_tree *tree, struct ff_node *dir, const char *name,
				  size_t len, uint32_t mode, struct ff_err *err)
{
	struct ff_node *n = ff_tree_child(tree, dir, name, len);

	if (!n)
		return ff_tree_add_child(tree, dir, name, len, mode, err);
	if (S_ISDIR(n->mode) && S_ISDIR(mode))
		return n;
	return ff_node_reset(n, mode, err) ? NULL : n;
}

struct ff_node *ff_tree_put_path(struct ff_tree *tree, const char *path, uint32_t mode,
				 struct ff_err *err)
{
	struct ff_node *dir;
	const char *base;

	if (!*path) {
		if (S_ISDIR(mode))
			return tree->root;
		ff_err_set(err, EINVAL, "root must be a directory");
		return NULL;
	}
	dir = ff_tree_parent_of(tree, path, 1, &base, err);
	return dir ? ff_tree_put_child(tree, dir, base, strlen(base), mode, err) : NULL;
}

struct ff_node *ff_tree_put_link(struct ff_tree *tree, const char *path, const char *target,
				 struct ff_err *err)
{
	struct ff_node *t, *n = NULL;
	char *tp = strdup(target);

	if (!tp) {
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	if (ff_path_normalise(tp, err) == 0) {
		t = ff_tree_lookup(tree, tp);
		if (!t)
			ff_err_set(err, ENOENT, "hard link target \"%s\" does not exist (yet)", tp);
		else if (!*path)
			ff_err_set(err, EINVAL, "the root cannot be a hard link");
		else if ((n = ff_tree_put_path(tree, path, (ff_node_primary(t))->mode, err)) &&
			 ff_node_make_link(n, t, err))
			n = NULL;
	}
	free(tp);
	return n;
}
