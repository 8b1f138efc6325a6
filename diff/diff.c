/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The comparison behind `flashfs diff`: two trees walked in step through
 * common/fs.h, each directory's names sorted and merged, every entry
 * present in both compared attribute by attribute (diff_attr.c,
 * diff_xattr.c).  Nothing here knows a format. */
#include "diff/diff.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/diff_walk.h"

#define DIFF_DEPTH_MAX 1024

static void report(struct diff_walk *w, const char *path, enum ff_diff_kind kind,
		   uint32_t from_mode, uint32_t to_mode)
{
	struct ff_diff_entry e = {.path = path, .kind = kind, .from_mode = from_mode,
				  .to_mode = to_mode, .changes = w->ch, .n_changes = w->n_ch};

	if (!w->failed) {
		w->count++;
		if (w->fn(w->ctx, &e))
			w->stop = 1;
	}
	ff_diff_clear(w);
}

/* A directory's entries sorted by name, whatever order the format keeps. */
static int list_dir(struct diff_walk *w, int side, uint64_t dir, const char *path,
		    struct ff_dirlist *d)
{
	int r = ff_fs_list_dir(w->s[side].fs, dir, FF_LIST_SORT, d);

	return r < 0 ? ff_diff_fail(w, side, path, -r, "") : 0;
}

static int get_stat(struct diff_walk *w, int side, uint64_t h, const char *path,
		    struct ff_stat *st)
{
	int r = w->s[side].fs->ops->getattr(w->s[side].fs, h, st);

	return r < 0 ? ff_diff_fail(w, side, path, -r, "") : 0;
}

/* Type-specific attributes of two entries of the same type. */
static void cmp_typed(struct diff_walk *w, const uint64_t h[2], const struct ff_stat st[2],
		      const char *path)
{
	uint32_t type = st[0].mode & S_IFMT;

	if (type == S_IFREG) {
		ff_diff_num(w, FF_DIFF_SIZE, st[0].size, st[1].size);
		if (st[0].size == st[1].size)
			ff_diff_contents(w, h, path);
	} else if (type == S_IFLNK) {
		ff_diff_target(w, h, path);
	} else if ((type == S_IFCHR || type == S_IFBLK) && ff_diff_wants(w, FF_DIFF_RDEV) &&
		   (st[0].rdev_major != st[1].rdev_major ||
		    st[0].rdev_minor != st[1].rdev_minor)) {
		struct ff_diff_change *c = ff_diff_add(w, FF_DIFF_RDEV);

		if (c) {
			c->from = (struct ff_diff_value){.present = 1, .major = st[0].rdev_major,
							 .minor = st[0].rdev_minor};
			c->to = (struct ff_diff_value){.present = 1, .major = st[1].rdev_major,
						       .minor = st[1].rdev_minor};
		}
	}
	if (type != S_IFDIR)
		ff_diff_link(w, h, path);
}

/* Compares one entry present in both trees and reports it if it differs. */
static void cmp_entry(struct diff_walk *w, const uint64_t h[2], const char *path,
		      struct ff_stat st[2])
{
	if (get_stat(w, 0, h[0], path, &st[0]) < 0 || get_stat(w, 1, h[1], path, &st[1]) < 0)
		return;
	if ((st[0].mode & S_IFMT) != (st[1].mode & S_IFMT)) {
		ff_diff_num(w, FF_DIFF_TYPE, st[0].mode & S_IFMT, st[1].mode & S_IFMT);
	} else {
		ff_diff_num(w, FF_DIFF_MODE, st[0].mode & 07777, st[1].mode & 07777);
		ff_diff_num(w, FF_DIFF_UID, st[0].uid, st[1].uid);
		ff_diff_num(w, FF_DIFF_GID, st[0].gid, st[1].gid);
		ff_diff_num(w, FF_DIFF_MTIME, (uint64_t)st[0].mtime, (uint64_t)st[1].mtime);
		cmp_typed(w, h, st, path);
		ff_diff_xattrs(w, h, path);
	}
	if (w->n_ch)
		report(w, path, FF_DIFF_CHANGED, st[0].mode, st[1].mode);
	ff_diff_clear(w);
}

/* An entry found in one tree only (side 0: removed, 1: added). */
static void one_side(struct diff_walk *w, int side, uint64_t h, const char *path)
{
	struct ff_stat st;

	if (get_stat(w, side, h, path, &st) == 0)
		report(w, path, side ? FF_DIFF_ADDED : FF_DIFF_REMOVED, side ? 0 : st.mode,
		       side ? st.mode : 0);
}

static void walk_dir(struct diff_walk *w, const uint64_t h[2], const char *path, int depth);

static void walk_child(struct diff_walk *w, const char *dir, const struct ff_dirent *a,
		       const struct ff_dirent *b, int depth)
{
	const struct ff_dirent *e = a ? a : b;
	size_t len = strlen(dir) + e->len + 2;
	char *path = malloc(len);
	uint64_t h[2] = {a ? a->handle : 0, b ? b->handle : 0};
	struct ff_stat st[2];

	if (!path) {
		ff_diff_fail(w, 0, dir, ENOMEM, "");
		return;
	}
	snprintf(path, len, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", e->name);
	if (!a || !b) {
		one_side(w, a ? 0 : 1, e->handle, path);
	} else {
		cmp_entry(w, h, path, st);
		if (!w->stop && S_ISDIR(st[0].mode) && S_ISDIR(st[1].mode))
			walk_dir(w, h, path, depth + 1);
	}
	free(path);
}

static void walk_dir(struct diff_walk *w, const uint64_t h[2], const char *path, int depth)
{
	struct ff_dirlist d[2] = {{0}, {0}};
	size_t i = 0, j = 0;

	if (depth > DIFF_DEPTH_MAX) {
		ff_diff_fail(w, 0, path, ELOOP, "directory nesting too deep: ");
		return;
	}
	if (list_dir(w, 0, h[0], path, &d[0]) == 0 && list_dir(w, 1, h[1], path, &d[1]) == 0)
		while (!w->stop && (i < d[0].n || j < d[1].n)) {
			const struct ff_dirent *a = i < d[0].n ? &d[0].v[i] : NULL;
			const struct ff_dirent *b = j < d[1].n ? &d[1].v[j] : NULL;
			int c = !a ? 1 : !b ? -1 : ff_dirent_cmp(a, b);

			walk_child(w, path, c <= 0 ? a : NULL, c >= 0 ? b : NULL, depth);
			i += c <= 0;
			j += c >= 0;
		}
	ff_dirlist_free(&d[0]);
	ff_dirlist_free(&d[1]);
}

static void free_link(void *p)
{
	free(p);
}

long ff_diff(struct ff_fs *from, struct ff_fs *to, const struct ff_diff_opts *opts,
	     ff_diff_fn fn, void *ctx, struct ff_err *err)
{
	struct diff_walk w = {
		.s = {{.fs = from, .name = opts && opts->from_name ? opts->from_name : "old"},
		      {.fs = to, .name = opts && opts->to_name ? opts->to_name : "new"}},
		.ignore = opts ? opts->ignore : 0, .fn = fn, .ctx = ctx, .err = err};
	uint64_t root[2] = {from->ops->root(from), to->ops->root(to)};
	struct ff_stat st[2];

	w.buf[0] = malloc(DIFF_CHUNK);
	w.buf[1] = malloc(DIFF_CHUNK);
	if (!w.buf[0] || !w.buf[1])
		ff_diff_fail(&w, 0, "/", ENOMEM, "");
	else
		cmp_entry(&w, root, "/", st);
	if (!w.stop && S_ISDIR(st[0].mode) && S_ISDIR(st[1].mode))
		walk_dir(&w, root, "/", 0);
	free(w.buf[0]);
	free(w.buf[1]);
	free(w.ch);
	ff_hmap_free(&w.s[0].links, free_link);
	ff_hmap_free(&w.s[1].links, free_link);
	return w.failed ? -1 : w.count;
}

const char *ff_diff_type_name(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symlink";
	case S_IFCHR: return "char-device";
	case S_IFBLK: return "block-device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	default: return "unknown";
	}
}

const char *ff_diff_attr_name(enum ff_diff_attr attr)
{
	static const char *const names[FF_DIFF_NATTRS] = {
		"type", "mode", "uid", "gid", "mtime", "size", "contents",
		"target", "rdev", "xattr", "link"};

	return attr < FF_DIFF_NATTRS ? names[attr] : "unknown";
}
