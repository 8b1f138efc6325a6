/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public tree API (<flashfs/fstree.h>): a struct ff_fstree is a
 * struct ff_tree, filled through the same node calls the spec and pseudo
 * file readers use, so a caller's entries obey the same rules as theirs. */
#include "tree/api_fstree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/api_error.h"
#include "common/warn.h"
#include "tree/tree_priv.h"

struct ff_fstree {
	struct ff_tree *tree;
	void (*warn)(void *ctx, const char *message);
	void *warn_ctx;
};

/* The public warning callback takes the text; the tree gives a record. */
static void warn_text(void *ctx, const struct ff_warning *w)
{
	struct ff_fstree *t = ctx;
	char line[1536];

	t->warn(t->warn_ctx, ff_warning_text(w, line, sizeof(line)));
}

void ff_fstree_options_init(struct ff_fstree_options *o)
{
	memset(o, 0, sizeof(*o));
	o->force_uid = o->force_gid = o->clamp_time = -1;
}

int ff_fstree_create(const struct ff_fstree_options *o, struct ff_fstree **out,
		     struct ff_error *error)
{
	struct ff_tree_opts to = { .force_uid = -1, .force_gid = -1, .all_time = -1,
				   .clamp_time = -1 };
	struct ff_err err = { 0, "" };
	struct ff_fstree *t;

	ff_api_clear(error);
	*out = NULL;
	if (o) {
		to.all_root = o->all_root;
		to.force_uid = o->force_uid;
		to.force_gid = o->force_gid;
		to.clamp_time = o->clamp_time;
		to.no_xattrs = o->no_xattrs;
		to.one_file_system = o->one_file_system;
		to.ignore_errors = o->ignore_errors;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return ff_api_errno(error, -ENOMEM, "source tree");
	if (o && o->warn) {
		t->warn = o->warn;
		t->warn_ctx = o->warn_ctx;
		to.warn = warn_text;
		to.warn_ctx = t;
	}
	t->tree = ff_tree_new(&to, &err);
	if (!t->tree) {
		free(t);
		return ff_api_error(error, &err);
	}
	*out = t;
	return 0;
}

void ff_fstree_destroy(struct ff_fstree *t)
{
	if (t) {
		ff_tree_free(t->tree);
		free(t);
	}
}

const struct ff_tree *ff_api_fstree_finish(struct ff_fstree *t, struct ff_err *err)
{
	if (!t->tree->finished && ff_tree_finish(t->tree, err))
		return NULL;
	return t->tree;
}

int ff_api_fstree_no_xattrs(const struct ff_fstree *t)
{
	return t->tree->opts.no_xattrs;
}

/* The node for `path` as type `mode` (created, or reset to that type),
 * with meta applied; NULL with err naming the path. */
static struct ff_node *put(struct ff_fstree *t, const char *path, uint32_t mode,
			   const struct ff_meta *meta, struct ff_err *err)
{
	uint32_t perm = meta ? meta->mode & 07777 : S_ISDIR(mode) ? 0755 : 0644;
	struct ff_node *n = ff_tree_put_entry(t->tree, path, mode | perm, err);

	if (n && meta) {
		n->mode = mode | perm;
		n->uid = meta->uid;
		n->gid = meta->gid;
		n->mtime = meta->mtime;
	}
	return n;
}

/* err prefixed with the caller's path, copied out; returns -1. */
static int path_error(struct ff_error *error, struct ff_err *err, const char *path)
{
	ff_err_prefix(err, "%s", path);
	return ff_api_error(error, err);
}

int ff_fstree_add_dir(struct ff_fstree *t, const char *path, const struct ff_meta *meta,
		      struct ff_error *error)
{
	struct ff_err err = { 0, "" };

	ff_api_clear(error);
	return put(t, path, S_IFDIR, meta, &err) ? 0 : ff_api_error(error, &err);
}

int ff_fstree_add_file(struct ff_fstree *t, const char *path, const struct ff_meta *meta,
		       const void *data, size_t len, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	struct ff_node *n;
	struct ff_spool *sp;
	uint64_t off = 0;

	ff_api_clear(error);
	n = put(t, path, S_IFREG, meta, &err);
	if (!n || (len && (!(sp = ff_tree_spool(t->tree, &err)) ||
			   ff_spool_region(sp, len, 0, &off, &err) ||
			   ff_spool_write(sp, data, len, off, &err))))
		return ff_api_error(error, &err);
	ff_node_clear_src(n);
	n->size = len;
	n->spool_off = off;
	return 0;
}

int ff_fstree_add_file_from(struct ff_fstree *t, const char *path, const struct ff_meta *meta,
			    const char *host_path, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	struct ff_node *n;
	struct stat st;

	ff_api_clear(error);
	if (stat(host_path, &st))
		return ff_api_errno(error, -errno, host_path);
	if (!S_ISREG(st.st_mode))
		return ff_api_errno(error, -EINVAL, host_path);
	n = put(t, path, S_IFREG, meta, &err);
	if (!n || ff_tree_set_host_file(n, host_path, (uint64_t)st.st_size, &err))
		return ff_api_error(error, &err);
	return 0;
}

int ff_fstree_add_symlink(struct ff_fstree *t, const char *path, const struct ff_meta *meta,
			  const char *target, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	struct ff_node *n;

	ff_api_clear(error);
	n = put(t, path, S_IFLNK, meta, &err);
	if (!n || ff_tree_set_symlink(n, target, &err))
		return ff_api_error(error, &err);
	n->mode = S_IFLNK | 0777;
	n->size = strlen(target);
	return 0;
}

int ff_fstree_add_device(struct ff_fstree *t, const char *path, const struct ff_meta *meta,
			 uint32_t major, uint32_t minor, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	uint32_t type = meta ? meta->mode & S_IFMT : 0;
	struct ff_node *n;

	ff_api_clear(error);
	if (type != S_IFCHR && type != S_IFBLK && type != S_IFIFO && type != S_IFSOCK) {
		ff_err_set(&err, EINVAL, "%s: mode 0%o is not a device, FIFO or socket", path,
			   meta ? meta->mode : 0);
		return ff_api_error(error, &err);
	}
	n = put(t, path, type, meta, &err);
	if (!n)
		return ff_api_error(error, &err);
	if (type == S_IFCHR || type == S_IFBLK) {
		n->rdev_major = major;
		n->rdev_minor = minor;
	}
	return 0;
}

int ff_fstree_add_hardlink(struct ff_fstree *t, const char *path, const char *target,
			   struct ff_error *error)
{
	struct ff_err err = { 0, "" };

	ff_api_clear(error);
	return ff_tree_put_hardlink(t->tree, path, target, &err) ? 0 : ff_api_error(error, &err);
}

int ff_fstree_set_xattr(struct ff_fstree *t, const char *path, const char *name,
			const void *value, size_t len, struct ff_error *error)
{
	struct ff_err err = { 0, "" };
	struct ff_node *n = ff_tree_find_entry(t->tree, path, &err);

	ff_api_clear(error);
	if (!n)
		return ff_api_error(error, &err);
	return ff_tree_set_xattr(n, name, value, len, &err) ? path_error(error, &err, path) : 0;
}

int ff_fstree_scan_dir(struct ff_fstree *t, const char *dir, struct ff_error *error)
{
	struct ff_err err = { 0, "" };

	ff_api_clear(error);
	return ff_tree_add_dir(t->tree, dir, &err) ? ff_api_error(error, &err) : 0;
}

int ff_fstree_scan_tar(struct ff_fstree *t, const char *path, struct ff_error *error)
{
	struct ff_err err = { 0, "" };

	ff_api_clear(error);
	return ff_tree_add_tar(t->tree, path, &err) ? ff_api_error(error, &err) : 0;
}
