/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An existing image as a source, for appending (mksquashfs' default when
 * the target is a SquashFS image): its objects are read through the one
 * read interface (common/fs.h), so this file knows no format.  Regular
 * files keep a reference to the image object instead of a host path; the
 * SquashFS writer copies their stored blocks, and anything else reads
 * them through the interface. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fs.h"
#include "common/hmap.h"

struct walk {
	struct ff_tree *tree;
	struct ff_fs *fs;
	struct ff_hmap links; /* inode number -> first node of a hard-link group */
};


/* The whole directory first: the walk below recurses, and a callback
 * should not. */
static int list_dir(struct walk *w, uint64_t dir, const char *path, struct ff_dirlist *l,
		    struct ff_err *err)
{
	int r = ff_fs_list_dir(w->fs, dir, 0, l);

	return r < 0 ? ff_err_sys(err, -r, "image: /%s: cannot list", path) : 0;
}

struct xattr_ctx {
	struct walk *w;
	struct ff_node *n;
	uint64_t handle;
	struct ff_err *err;
	int failed;
};

static int copy_xattr(void *ctx, const char *name, size_t name_len)
{
	struct xattr_ctx *x = ctx;
	char key[256];
	uint8_t *val;
	ssize_t len;
	int ret;

	if (name_len >= sizeof(key))
		return x->failed = 1, ff_err_set(x->err, ERANGE, "xattr name of %zu bytes", name_len);
	memcpy(key, name, name_len);
	key[name_len] = '\0';
	len = x->w->fs->ops->getxattr(x->w->fs, x->handle, key, NULL, 0);
	val = malloc(len > 0 ? (size_t)len : 1);
	if (len < 0 || !val) {
		free(val);
		x->failed = 1;
		return ff_err_sys(x->err, len < 0 ? (int)-len : ENOMEM, "xattr %s", key);
	}
	if (len > 0)
		len = x->w->fs->ops->getxattr(x->w->fs, x->handle, key, val, (size_t)len);
	ret = len < 0 ? ff_err_sys(x->err, (int)-len, "xattr %s", key)
		      : ff_node_set_xattr(x->n, key, val, (size_t)len, x->err);
	free(val);
	x->failed |= ret != 0;
	return ret;
}

static int copy_content(struct walk *w, struct ff_node *n, uint64_t handle,
			const struct ff_stat *st, struct ff_err *err)
{
	struct xattr_ctx x = {w, n, handle, err, 0};
	char target[4096];
	ssize_t len;

	n->uid = st->uid;
	n->gid = st->gid;
	n->mtime = st->mtime;
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode)) { /* else children or target */
		n->rdev_major = st->rdev_major;
		n->rdev_minor = st->rdev_minor;
	}
	ff_node_clear_src(n);
	n->src_kind = FF_SRC_IMG;   /* tree->img is w->fs */
	if (S_ISREG(st->mode))
		n->img_handle = handle;
	if (S_ISREG(st->mode)) {
		n->size = st->size;
	} else if (S_ISLNK(st->mode)) {
		len = w->fs->ops->readlink(w->fs, handle, target, sizeof(target));
		if (len < 0 || (size_t)len >= sizeof(target))
			return ff_err_set(err, len < 0 ? (int)-len : ENAMETOOLONG,
					  "symlink target unreadable");
		if (ff_node_set_target(n, target, (size_t)len, err))
			return -1;
	}
	if (w->fs->ops->listxattr && w->fs->ops->listxattr(w->fs, handle, copy_xattr, &x) < 0 &&
	    !x.failed)
		return ff_err_set(err, EIO, "xattrs unreadable");
	return x.failed ? -1 : 0;
}

static int add_dir(struct walk *w, struct ff_node *dir, uint64_t handle, const char *path,
		   struct ff_err *err);

static int add_entry(struct walk *w, struct ff_node *dir, const struct ff_dirent *e,
		     const char *dir_path, struct ff_err *err)
{
	char path[4096];
	struct ff_node *n, *first;
	struct ff_stat st;
	int r = w->fs->ops->getattr(w->fs, e->handle, &st);

	snprintf(path, sizeof(path), "%s%s%s", dir_path, *dir_path ? "/" : "", e->name);
	if (r < 0)
		return ff_err_sys(err, -r, "image: /%s", path);
	n = ff_tree_add_child(w->tree, dir, e->name, e->len, st.mode, err);
	if (!n)
		return ff_err_prefix(err, "image: /%s", path);
	first = !S_ISDIR(st.mode) && st.nlink > 1 ? ff_hmap_get(&w->links, st.ino) : NULL;
	if (first)
		r = ff_node_make_link(n, first, err);
	else if (!S_ISDIR(st.mode) && st.nlink > 1 && ff_hmap_put(&w->links, st.ino, n) < 0)
		r = ff_err_set(err, ENOMEM, "out of memory");
	if (r < 0 || (!first && copy_content(w, n, e->handle, &st, err) < 0))
		return ff_err_prefix(err, "image: /%s", path);
	return S_ISDIR(st.mode) ? add_dir(w, n, e->handle, path, err) : 0;
}

static int add_dir(struct walk *w, struct ff_node *dir, uint64_t handle, const char *path,
		   struct ff_err *err)
{
	struct ff_dirlist l;
	int ret = 0;

	if (list_dir(w, handle, path, &l, err) < 0)
		return -1;
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = add_entry(w, dir, &l.v[i], path, err);
	ff_dirlist_free(&l);
	return ret;
}

/* The first NAME_k (k = 1, 2, ...) neither at the root nor in the image's
 * root. */
static int free_name(struct walk *w, const struct ff_dirent *e, char *out, size_t cap)
{
	uint64_t h;

	for (unsigned k = 1; k < 100000; k++) {
		int len = snprintf(out, cap, "%s_%u", e->name, k);

		if (len <= 0 || (size_t)len >= cap || len > FF_NAME_MAX)
			return -1;
		if (!ff_tree_child(w->tree, w->tree->root, out, (size_t)len) &&
		    w->fs->ops->lookup(w->fs, w->fs->ops->root(w->fs), out, (size_t)len, &h) < 0)
			return len;
	}
	return -1;
}

/* An entry at the root that the image also has is the new one: renamed. */
static int make_room(struct walk *w, const struct ff_dirent *e, struct ff_err *err)
{
	struct ff_node *clash = ff_tree_child(w->tree, w->tree->root, e->name, e->len);
	char name[FF_NAME_MAX + 2];
	int len;

	if (!clash)
		return 0;
	len = free_name(w, e, name, sizeof(name));
	if (len < 0)
		return ff_err_set(err, ENAMETOOLONG, "%s: no free NAME_N to rename it to",
				  e->name);
	ff_tree_warn(w->tree, FF_WARN_CONVERTED, e->name,
		     "the image has this name already; added as %s", name);
	return ff_tree_rename(w->tree, clash, name, (size_t)len, err);
}

int ff_tree_add_image(struct ff_tree *tree, struct ff_fs *fs, struct ff_err *err)
{
	struct walk w = {.tree = tree, .fs = fs};
	struct ff_dirlist l;
	int ret = 0;

	if (ff_tree_check_open(tree, err))
		return -1;
	/* nodes name their image through the tree (ff_node_image) */
	if (tree->img && tree->img != fs)
		return ff_err_set(err, EINVAL, "only one image can be appended to");
	tree->img = fs;
	if (list_dir(&w, fs->ops->root(fs), "", &l, err))
		return -1;
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = make_room(&w, &l.v[i], err);
	for (size_t i = 0; i < l.n && !ret; i++)
		ret = add_entry(&w, tree->root, &l.v[i], "", err);
	ff_dirlist_free(&l);
	ff_hmap_free(&w.links, NULL);
	return ret;
}
