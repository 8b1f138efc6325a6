/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Changing one node: its type-specific content, xattrs and hard links. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void ff_node_free(struct ff_node *n)
{
	ff_node_free_xattrs(n);
	if (S_ISDIR(n->mode) || S_ISLNK(n->mode))
		free(n->children); /* or the target: one union (a device's rdev) */
	ff_node_clear_src(n);
	ff_node_free_ext(n);
	if (!n->in_slab)
		free(n);
}

void ff_node_free_xattrs(struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);

	for (uint32_t i = 0; e && i < e->n_xattrs; i++) {
		free(e->xattrs[i].name);
		free(e->xattrs[i].value);
	}
	if (e) {
		free(e->xattrs);
		e->xattrs = NULL;
		e->n_xattrs = 0;
	}
}

struct ff_node_ext *ff_node_ext(struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);
	char *name;

	if (e)
		return e;
	e = calloc(1, sizeof(*e));
	name = malloc((size_t)n->name_len + 1);
	if (!e || !name) {
		free(e);
		free(name);
		return NULL;
	}
	memcpy(name, n + 1, n->name_len);
	name[n->name_len] = '\0';
	e->name = name;
	memcpy(n + 1, &e, sizeof(e)); /* over the name: at least 8 bytes */
	n->has_ext = 1;
	return e;
}

int ff_node_set_link(struct ff_node *n, struct ff_node *primary)
{
	struct ff_node_ext *e = primary ? ff_node_ext(n) : ff_node_ext_of(n);

	if (e)
		e->link = primary;
	return primary && !e ? -1 : 0;
}

void ff_node_clear_src(struct ff_node *n)
{
	if (n->src_kind == FF_SRC_HOST)
		free(n->src_path);
	n->src_kind = FF_SRC_SPOOL;
	n->spool_off = 0;
	n->src_in_dir = 0;
}

struct ff_fs *ff_node_image(const struct ff_tree *tree, const struct ff_node *n)
{
	return n->src_kind == FF_SRC_IMG ? tree->img : NULL;
}

void ff_node_free_ext(struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);

	if (!e)
		return;
	free(e->name);
	free(e->xattrs);
	free(e);
	/* a slab node's bytes stay, and so may its ids in the tree's
	 * (parent, name) set, which hashes them again as it grows: an empty
	 * name */
	n->has_ext = 0;
	n->name_len = 0;
}

int ff_node_reset(struct ff_node *n, uint32_t new_mode, struct ff_err *err)
{
	if (n->n_children && !S_ISDIR(new_mode))
		return ff_err_set(err, EISDIR, "%s: is a non-empty directory, cannot become another type",
				  ff_node_name(n));
	if (S_ISDIR(new_mode) && !S_ISDIR(n->mode) && !n->parent)
		return ff_err_set(err, EINVAL, "root must be a directory");
	if (!n->parent && !S_ISDIR(new_mode))
		return ff_err_set(err, EINVAL, "root must be a directory");
	ff_node_free_xattrs(n);
	/* children, target and rdev share their storage: a directory
	 * staying one keeps its entries; anything else (an empty directory,
	 * as checked above) drops the array or target and has no rdev */
	if (!(S_ISDIR(n->mode) && S_ISDIR(new_mode))) {
		if (S_ISDIR(n->mode) || S_ISLNK(n->mode))
			free(n->target);
		n->target = NULL;
		n->rdev_major = n->rdev_minor = 0;
	}
	ff_node_clear_src(n);
	n->size = 0;
	ff_node_set_link(n, NULL); /* never fails */
	n->mode = new_mode;
	return 0;
}

int ff_node_set_target(struct ff_node *n, const char *target, size_t len, struct ff_err *err)
{
	char *t = malloc(len + 1);

	if (!t)
		return ff_err_set(err, ENOMEM, "%s: out of memory", ff_node_name(n));
	memcpy(t, target, len);
	t[len] = '\0';
	free(n->target);
	n->target = t;
	n->size = len;
	return 0;
}

int ff_node_set_src(struct ff_node *n, const char *path, struct ff_err *err)
{
	char *p = strdup(path);

	if (!p)
		return ff_err_set(err, ENOMEM, "%s: out of memory", ff_node_name(n));
	ff_node_clear_src(n);
	n->src_kind = FF_SRC_HOST;
	n->src_path = p;
	return 0;
}

const char *ff_node_host_path(const struct ff_node *n, char *buf, size_t cap)
{
	size_t dlen;

	if (n->src_kind != FF_SRC_HOST)
		return NULL;
	if (n->src_path || !n->src_in_dir)
		return n->src_path;
	/* memcpy: snprintf was 13% of a small-file build's instructions */
	if (n->parent->src_kind != FF_SRC_HOST || !n->parent->src_path)
		return NULL;
	dlen = strlen(n->parent->src_path);
	if (dlen + 1 + n->name_len >= cap)
		return NULL;
	memcpy(buf, n->parent->src_path, dlen);
	buf[dlen] = '/';
	memcpy(buf + dlen + 1, ff_node_name(n), n->name_len + 1);
	return buf;
}

int ff_node_own_src(struct ff_node *n, struct ff_err *err)
{
	char buf[8192];
	const char *p;

	if (!n->src_in_dir)
		return 0;
	p = ff_node_host_path(n, buf, sizeof(buf));
	if (!p)
		return ff_err_set(err, ENAMETOOLONG, "%s: host path too long", ff_node_name(n));
	return ff_node_set_src(n, p, err);
}

int ff_node_set_xattr(struct ff_node *n, const char *name, const void *value, size_t len,
		      struct ff_err *err)
{
	struct ff_xattr *x = NULL, *tab;
	struct ff_node_ext *e;
	uint8_t *v;

	if (ff_node_link(n))
		n = ff_node_link(n);
	e = ff_node_ext(n);
	if (!e)
		return ff_err_set(err, ENOMEM, "%s: xattr %s: out of memory", ff_node_name(n),
				  name);
	for (uint32_t i = 0; i < e->n_xattrs; i++)
		if (!strcmp(e->xattrs[i].name, name))
			x = &e->xattrs[i];
	if (len > UINT32_MAX || !(v = malloc(len ? len : 1)))
		return ff_err_set(err, ENOMEM, "%s: xattr %s: out of memory", ff_node_name(n),
				  name);
	memcpy(v, value, len);
	if (!x && e->n_xattrs == UINT16_MAX) {
		free(v);
		return ff_err_set(err, E2BIG, "%s: xattr %s: more than %u xattrs",
				  ff_node_name(n), name, (unsigned)UINT16_MAX);
	}
	if (!x) {
		tab = realloc(e->xattrs, (e->n_xattrs + 1) * sizeof(*tab));
		if (!tab)
			goto oom;
		e->xattrs = tab;
		x = &tab[e->n_xattrs];
		if (!(x->name = strdup(name)))
			goto oom;
		x->value = NULL;
		e->n_xattrs++;
	}
	free(x->value);
	x->value = v;
	x->len = (uint32_t)len;
	return 0;
oom:
	free(v);
	return ff_err_set(err, ENOMEM, "%s: xattr %s: out of memory", ff_node_name(n), name);
}

int ff_node_make_link(struct ff_node *n, struct ff_node *target, struct ff_err *err)
{
	if (ff_node_link(target))
		target = ff_node_link(target);
	if (S_ISDIR(target->mode))
		return ff_err_set(err, EPERM, "%s: hard link to a directory is not allowed",
				  ff_node_name(n));
	if (target == n)
		return ff_err_set(err, EINVAL, "%s: hard link to itself", ff_node_name(n));
	/* finish may move the content to another name of the group */
	if (ff_node_own_src(target, err))
		return -1;
	if (ff_node_reset(n, target->mode, err))
		return -1;
	if (ff_node_set_link(n, target))
		return ff_err_set(err, ENOMEM, "%s: out of memory", ff_node_name(n));
	return 0;
}
