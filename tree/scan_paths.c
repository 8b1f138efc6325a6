/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Sources given as a list of paths (mksquashfs' `SOURCE... IMAGE`): each
 * path's last part becomes an entry of the root, and the directories among
 * them are walked as scan_dir.c walks one directory. */
#include "tree/scan_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/vec.h"

/* -no-strip / -cpiostyle.  The length of the leading "/", "." and ".."
 * components of p (the directory the path starts from). */
static size_t prefix_len(const char *p)
{
	size_t i = 0, end = 0;

	while (p[i]) {
		size_t j = i;

		while (p[j] == '/')
			j++;
		if (p[j] == '.' && (p[j + 1] == '/' || !p[j + 1]))
			j += 1;
		else if (p[j] == '.' && p[j + 1] == '.' && (p[j + 2] == '/' || !p[j + 2]))
			j += 2;
		else
			break;
		end = i = j;
	}
	return p[0] == '/' && !end ? 1 : end;
}

/* s->path = the starting directory, then "/" and the normalised rest;
 * root_len marks where the image path starts.  1 when nothing is left. */
static int paths_begin(struct scan *s, const char *p)
{
	size_t pre = prefix_len(p), len;
	const char *rest = p + pre;

	if (pre == 1 && p[0] == '/') {
		s->path[0] = '\0';
	} else if (pre) {
		if (pre >= sizeof(s->path))
			return ff_err_set(s->err, ENAMETOOLONG, "%s: path too long", p);
		memcpy(s->path, p, pre);
		s->path[pre] = '\0';
		while (pre > 1 && s->path[pre - 1] == '/')
			s->path[--pre] = '\0';
	} else {
		strcpy(s->path, ".");
	}
	s->root_len = strlen(s->path);
	while (*rest == '/')
		rest++;
	if (!*rest)
		return 1;
	len = s->root_len;
	for (; *rest; rest++) {
		if (*rest == '/' && (rest[1] == '/' || !rest[1] || s->path[len - 1] == '/'))
			continue;
		if (len + 2 >= sizeof(s->path))
			return ff_err_set(s->err, ENAMETOOLONG, "%s: path too long", p);
		if (len == s->root_len)
			s->path[len++] = '/';
		s->path[len++] = *rest;
	}
	s->path[len] = '\0';
	return 0;
}

/* The host directory a path starts from ("" is "/"). */
static int paths_root_stat(const struct scan *s, struct stat *st)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%.*s", (int)s->root_len, s->path);
	return lstat(*dir ? dir : "/", st);
}

/* One directory on the way to the listed entry: kept if already there,
 * else made from the host directory s->path (which must be one). */
static struct ff_node *paths_dir(struct scan *s, struct ff_node *dir, const char *name)
{
	struct ff_node *n = ff_tree_child(s->tree, dir, name, strlen(name));
	struct stat st;

	if (n && S_ISDIR(n->mode))
		return n;
	if (lstat(s->path, &st)) {
		ff_err_sys(s->err, errno, "%s: cannot stat", s->path);
		return NULL;
	}
	if (n || !S_ISDIR(st.st_mode)) {
		ff_err_set(s->err, ENOTDIR, "%s: not a directory", s->path);
		return NULL;
	}
	n = ff_scan_entry_node(s, dir, name, st.st_mode);
	return n && ff_scan_set_meta(s, n, &st) == 0 ? n : NULL;
}

/* The listed entry itself: with recurse a directory's contents too. */
static int paths_leaf(struct scan *s, struct ff_node *dir, const char *name, int recurse)
{
	struct ff_node *n;
	struct stat st;

	if (lstat(s->path, &st)) {
		int rc = ff_scan_entry_problem(s, errno, "cannot stat");

		return rc < 0 ? -1 : 0;
	}
	s->root_dev = st.st_dev;
	if (!S_ISDIR(st.st_mode))
		return ff_scan_leaf(s, dir, name, &st);
	if (recurse)
		return ff_scan_subdir(s, dir, name, &st);
	n = ff_tree_child(s->tree, dir, name, strlen(name));
	if (n && S_ISDIR(n->mode))
		return 0; /* already there, made on the way to an earlier entry */
	n = ff_scan_entry_node(s, dir, name, st.st_mode);
	return n ? ff_scan_set_meta(s, n, &st) : -1;
}

/* Walk s->path below root_len, component by component. */
static int paths_walk(struct scan *s, int recurse)
{
	char *p = s->path + s->root_len + 1, *slash;
	struct ff_node *dir = s->tree->root;

	s->depth = 1;
	for (slash = p; (slash = strchr(slash, '/')); slash++) {
		char name[FF_NAME_MAX + 1];

		if ((size_t)(slash - p) > FF_NAME_MAX)
			return ff_err_set(s->err, ENAMETOOLONG, "%s: name too long", s->path);
		if ((slash - p == 1 && *p == '.') || (slash - p == 2 && !strncmp(p, "..", 2)))
			return ff_err_set(s->err, EINVAL, "%s: '.' or '..' inside a path is not "
					  "allowed here", s->path);
		memcpy(name, p, (size_t)(slash - p));
		name[slash - p] = '\0';
		*slash = '\0';
		if (ff_tree_excluded(s->tree, ff_scan_rel_path(s)))
			return 0;
		dir = paths_dir(s, dir, name);
		*slash = '/';
		if (!dir)
			return -1;
		p = slash + 1;
		s->depth++;
	}
	if (!strcmp(p, ".") || !strcmp(p, ".."))
		return ff_err_set(s->err, EINVAL, "%s: '.' or '..' inside a path is not allowed "
				  "here", s->path);
	if (strlen(p) > FF_NAME_MAX)
		return ff_err_set(s->err, ENAMETOOLONG, "%s: name too long", s->path);
	if (ff_tree_excluded(s->tree, ff_scan_rel_path(s)))
		return 0;
	return paths_leaf(s, dir, p, recurse);
}

int ff_tree_add_paths(struct ff_tree *tree, int (*next)(void *ctx, const char **path,
							 struct ff_err *err),
		      void *ctx, int recurse, struct ff_err *err)
{
	struct scan s = { .tree = tree, .err = err };
	struct stat first, st;
	int rc, same = -1;
	const char *p;

	if (ff_tree_check_open(tree, err))
		return -1;
	while ((rc = next(ctx, &p, err)) > 0) {
		rc = paths_begin(&s, p);
		if (rc > 0 && recurse)
			rc = ff_err_set(err, EINVAL, "%s: nothing left after dropping the leading "
					"'/', '.' and '..'", p);
		if (rc > 0)
			continue; /* find . lists "." itself */
		if (rc < 0 || paths_root_stat(&s, same < 0 ? &first : &st)) {
			rc = rc < 0 ? -1 : ff_err_sys(err, errno, "%s: cannot stat its start", p);
			break;
		}
		if (same < 0)
			same = 1;
		else if (st.st_dev != first.st_dev || st.st_ino != first.st_ino)
			same = 0;
		if ((rc = paths_walk(&s, recurse)) < 0)
			break;
	}
	/* one common starting directory: it is the root, as in mksquashfs */
	if (rc == 0 && same == 1) {
		s.path[s.root_len] = '\0';
		if (!*s.path)
			strcpy(s.path, "/");
		rc = ff_scan_set_meta(&s, tree->root, &first);
		tree->root->mode = S_IFDIR | (first.st_mode & 07777);
	}
	free(s.inos);
	return rc < 0 ? -1 : 0;
}
