/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tree the source options describe (see source_args.h). */
#include "mkfs/source_args.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tree/tree.h"

/* Is `inner` the directory `outer` or below it?  Both are real paths. */
static int is_below(const char *inner, const char *outer)
{
	size_t n = strlen(outer);

	return !strncmp(inner, outer, n) && (inner[n] == '\0' || inner[n] == '/' || n == 1);
}

/* The real path of the directory IMAGE will be written in. */
static int image_dir(const char *image, char *out)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", image);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return realpath(slash ? (*dir ? dir : "/") : ".", out) ? 0 : -1;
}

static int check_one(const char *source, const char *image, struct ff_err *err)
{
	char src[PATH_MAX], dir[PATH_MAX], img[PATH_MAX];
	struct stat st;

	/* Unresolvable paths are left for the build to report. */
	if (!source || !strcmp(source, "-") || !realpath(source, src) || stat(src, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode) && image_dir(image, dir) == 0 && is_below(dir, src))
		return ff_err_set(err, EINVAL, "%s: the image would be inside SOURCE %s; "
				  "refusing", image, source);
	if (!S_ISDIR(st.st_mode) && realpath(image, img) && !strcmp(img, src))
		return ff_err_set(err, EINVAL, "%s: IMAGE and SOURCE are the same file", image);
	return 0;
}

int ff_source_args_check_image(const struct ff_source_args *a, const char *image,
			       struct ff_err *err)
{
	for (size_t i = 0; i < a->sources.n; i++)
		if (check_one(a->sources.v[i], image, err))
			return -1;
	return check_one(a->source, image, err);
}

/* The root entry name for a source: its last component, and with
 * mksquashfs' rule for a name already taken, NAME_1, NAME_2, ... */
static int source_name(struct ff_tree *tree, const char *path, char *name, size_t cap,
		       struct ff_err *err)
{
	size_t len = strlen(path);
	const char *base;

	while (len > 1 && path[len - 1] == '/')
		len--;
	base = path + len;
	while (base > path && base[-1] != '/')
		base--;
	if ((size_t)(path + len - base) >= cap || !strncmp(base, "..", 2) || base == path + len ||
	    (*base == '.' && base + 1 == path + len) || *base == '/')
		return ff_err_set(err, EINVAL, "%s: bad source name", path);
	snprintf(name, cap, "%.*s", (int)(path + len - base), base);
	for (unsigned pass = 1; ff_tree_child(tree, ff_tree_root(tree), name, strlen(name)); pass++)
		snprintf(name, cap, "%.*s_%u", (int)(path + len - base), base, pass);
	return 0;
}

/* mksquashfs' root when it has no source directory of its own (several
 * sources, -tar): rwx for all, the user's ids, the build time. */
static void dummy_root(struct ff_tree *tree, const struct ff_source_args *a)
{
	struct ff_node *root = ff_tree_root(tree);

	root->mode = S_IFDIR | 0777;
	root->uid = getuid();
	root->gid = getgid();
	/* the tree was made from a->tree: the same clamp time */
	root->mtime = a->tree.clamp_time >= 0 ? a->tree.clamp_time : (int64_t)time(NULL);
}

static int add_sources(struct ff_tree *tree, const struct ff_source_args *a,
		       struct ff_err *err)
{
	char name[FF_NAME_MAX + 16];

	dummy_root(tree, a);
	for (size_t i = 0; i < a->sources.n; i++)
		if (source_name(tree, a->sources.v[i], name, sizeof(name), err) ||
		    ff_tree_add_entry(tree, a->sources.v[i], name, err))
			return -1;
	return 0;
}

/* --no-strip: the SOURCE paths, one by one. */
struct path_list {
	const struct ff_strv *v;
	size_t i;
	char *line;	/* --cpio-style: the current line from stdin */
	size_t cap;
	int delim;
};

static int list_next(void *ctx, const char **path, struct ff_err *err)
{
	struct path_list *l = ctx;

	(void)err;
	if (l->i >= l->v->n)
		return 0;
	*path = l->v->v[l->i++];
	return 1;
}

/* --cpio-style: the next non-empty path on stdin (the last may lack its
 * terminator). */
static int stdin_next(void *ctx, const char **path, struct ff_err *err)
{
	struct path_list *l = ctx;
	ssize_t len;

	do {
		errno = 0;
		len = getdelim(&l->line, &l->cap, l->delim, stdin);
		if (len < 0)
			return errno ? ff_err_sys(err, errno, "reading paths from standard input")
				     : 0;
		if (len > 0 && l->line[len - 1] == l->delim)
			l->line[--len] = '\0';
	} while (!len);
	*path = l->line;
	return 1;
}

/* --no-strip and --cpio-style: paths taken as they are written. */
static int add_path_list(struct ff_tree *tree, const struct ff_source_args *a,
			 struct ff_err *err)
{
	struct ff_strv one = { 0 };
	struct path_list l = { .v = a->sources.n ? &a->sources : &one,
			       .delim = a->cpio == FF_CPIO_NUL ? '\0' : '\n' };
	const char *v[1] = { a->source };
	int rc;

	one.v = v;
	one.n = a->source ? 1 : 0;
	dummy_root(tree, a);
	rc = ff_tree_add_paths(tree, a->cpio ? stdin_next : list_next, &l, !a->cpio, err);
	free(l.line);
	return rc;
}

static int exclude_line(void *ctx, const char *line, unsigned lineno, struct ff_err *err)
{
	struct ff_source_args *a = ctx;
	char *copy;

	(void)lineno;
	if (!*line || *line == '#')
		return 0;
	copy = strdup(line);
	if (!copy)
		return ff_err_sys(err, ENOMEM, "exclude pattern");
	if (ff_strv_push(&a->owned, copy, err)) {
		free(copy);
		return -1;
	}
	return ff_strv_push(&a->excludes, copy, err);
}

static int load_exclude_files(struct ff_source_args *a, struct ff_err *err)
{
	for (size_t i = 0; i < a->exclude_files.n; i++)
		if (ff_lines_each(a->exclude_files.v[i], exclude_line, a, err))
			return -1;
	a->exclude_files.n = 0; /* read once, even if build is called again */
	return 0;
}

static int add_source(struct ff_tree *tree, const char *source, struct ff_err *err)
{
	struct stat st;

	if (!source)
		return 0;
	if (!strcmp(source, "-"))
		return ff_tree_add_tar(tree, "-", err);
	if (stat(source, &st) < 0)
		return ff_err_sys(err, errno, "%s: cannot read SOURCE", source);
	if (S_ISDIR(st.st_mode))
		return ff_tree_add_dir(tree, source, err);
	return ff_tree_add_tar(tree, source, err);
}

static int add_definitions(struct ff_tree *tree, const struct ff_source_args *a,
			   struct ff_err *err)
{
	for (size_t i = 0; i < a->specs.n; i++)
		if (ff_tree_add_spec(tree, a->specs.v[i], err))
			return -1;
	for (size_t i = 0; i < a->device_tables.n; i++)
		if (ff_tree_add_device_table(tree, a->device_tables.v[i], err))
			return -1;
	for (size_t i = 0; i < a->pseudo_files.n; i++)
		if (ff_tree_add_pseudo_file(tree, a->pseudo_files.v[i], err))
			return -1;
	for (size_t i = 0; i < a->pseudo_lines.n; i++)
		if (ff_tree_add_pseudo_line(tree, a->pseudo_lines.v[i], err))
			return -1;
	if (a->sort_file && ff_tree_load_sort(tree, a->sort_file, err))
		return -1;
	return 0;
}

static void count_warning(void *ctx, const struct ff_warning *w)
{
	struct ff_source_args *a = ctx;

	a->warnings++;
	if (a->warn)
		a->warn(a->warn_ctx, w);
}

struct ff_tree *ff_source_args_build(struct ff_source_args *a, struct ff_err *err)
{
	struct ff_tree_opts o;
	struct ff_tree *tree;

	if (load_exclude_files(a, err))
		return NULL;
	o = a->tree;
	o.excludes = a->excludes.n ? a->excludes.v : NULL;
	o.n_excludes = a->excludes.n;
	o.warn = count_warning;
	o.warn_ctx = a;
	o.actions = a->actions;
	o.xattrs_add = a->xattrs_add.n ? a->xattrs_add.v : NULL;
	o.n_xattrs_add = a->xattrs_add.n;
	o.log = a->log;
	o.log_ctx = a->warn_ctx;
	tree = ff_tree_new(&o, err);
	if (!tree)
		return NULL;
	if (a->no_strip || a->cpio ? add_path_list(tree, a, err) :
	    a->sources.n ? add_sources(tree, a, err) : add_source(tree, a->source, err)) {
		ff_tree_free(tree);
		return NULL;
	}
	if (a->tar_stdin)
		dummy_root(tree, a); /* mksquashfs -tar ignores the archive's "." */
	if (add_definitions(tree, a, err) ||
	    (a->before_finish && a->before_finish(a->before_finish_ctx, tree, err)) ||
	    ff_tree_finish(tree, err)) {
		ff_tree_free(tree);
		return NULL;
	}
	return tree;
}
