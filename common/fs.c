/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/fs.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void ff_fs_log(struct ff_fs *fs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ff_vwarnf(fs->log, fs->log_ctx, FF_WARN_DAMAGED, NULL, fmt, ap);
	va_end(ap);
}

size_t ff_read_span(uint64_t size, uint64_t off, size_t len)
{
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	return len > (size_t)SSIZE_MAX ? (size_t)SSIZE_MAX : len;
}

int ff_fs_no_listxattr(struct ff_fs *fs, uint64_t handle, ff_xattr_fn fn, void *ctx)
{
	(void)fs;
	(void)handle;
	(void)fn;
	(void)ctx;
	return 0;
}

ssize_t ff_fs_no_getxattr(struct ff_fs *fs, uint64_t handle, const char *name, void *buf,
			  size_t cap)
{
	(void)fs;
	(void)handle;
	(void)name;
	(void)buf;
	(void)cap;
	return -ENODATA;
}

int ff_fs_resolve(struct ff_fs *fs, const char *path, uint64_t *handle)
{
	uint64_t cur = fs->ops->root(fs);

	while (*path) {
		const char *end;
		size_t len;
		int ret;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		end = strchr(path, '/');
		len = end ? (size_t)(end - path) : strlen(path);
		if (len == 1 && path[0] == '.') {
			path += len;
			continue;
		}
		ret = fs->ops->lookup(fs, cur, path, len, &cur);
		if (ret < 0)
			return ret;
		path += len;
	}
	*handle = cur;
	return 0;
}

/* The walk of ff_fs_resolve_follow: the directories from the root down to
 * where the walk is, and the path still to walk (a link's target puts
 * its own components in front of what remained). */
struct walk {
	uint64_t *dirs;
	size_t n, cap;
	char *rest;
	unsigned links;
};

static int walk_push(struct walk *w, uint64_t h)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 32;
		uint64_t *v = realloc(w->dirs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->dirs = v;
		w->cap = cap;
	}
	w->dirs[w->n++] = h;
	return 0;
}

/* Replaces the walk's remaining path with the link's target followed by
 * what remained after the link (tail, inside w->rest). */
static int walk_link(struct ff_fs *fs, struct walk *w, uint64_t h, const char *tail)
{
	char target[4097];
	ssize_t len;
	char *rest;

	if (++w->links > FF_FS_MAX_SYMLINKS)
		return -ELOOP;
	len = fs->ops->readlink(fs, h, target, sizeof(target) - 1);
	if (len < 0)
		return (int)len;
	if ((size_t)len >= sizeof(target) - 1)
		return -ENAMETOOLONG;
	target[len] = 0;
	rest = malloc((size_t)len + strlen(tail) + 2);
	if (!rest)
		return -ENOMEM;
	sprintf(rest, "%s%s%s", target, *tail ? "/" : "", tail);
	free(w->rest);
	w->rest = rest;
	if (target[0] == '/')
		w->n = 1; /* back to the image's root */
	return 0;
}

/* One component of the walk at *pos (len bytes, then the rest). */
static int walk_step(struct ff_fs *fs, struct walk *w, size_t pos, size_t len,
		     int follow_last)
{
	const char *name = w->rest + pos;
	const char *tail = name + len + strspn(name + len, "/");
	struct ff_stat st;
	uint64_t h;
	int r;

	if (len == 1 && name[0] == '.')
		return 0;
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		w->n -= w->n > 1;
		return 0;
	}
	r = fs->ops->lookup(fs, w->dirs[w->n - 1], name, len, &h);
	if (r == 0)
		r = fs->ops->getattr(fs, h, &st);
	if (r < 0)
		return r;
	/* "link/" is followed as the kernel does: the slash asks for a directory */
	if (S_ISLNK(st.mode) && (*tail || name[len] == '/' || follow_last)) {
		r = walk_link(fs, w, h, tail);
		return r < 0 ? r : 1;
	}
	if ((*tail || name[len] == '/') && !S_ISDIR(st.mode))
		return -ENOTDIR;
	return walk_push(w, h);
}

int ff_fs_resolve_follow(struct ff_fs *fs, const char *path, int follow_last,
			 uint64_t *handle)
{
	struct walk w = {0};
	size_t pos = 0;
	int r = walk_push(&w, fs->ops->root(fs));

	w.rest = strdup(path);
	if (!w.rest)
		r = -ENOMEM;
	while (r >= 0) {
		size_t len;

		pos += strspn(w.rest + pos, "/");
		if (!w.rest[pos])
			break;
		len = strcspn(w.rest + pos, "/");
		r = walk_step(fs, &w, pos, len, follow_last);
		pos = r == 1 ? 0 : pos + len; /* 1: a link put its target in front */
	}
	if (r >= 0)
		*handle = w.dirs[w.n - 1];
	free(w.dirs);
	free(w.rest);
	return r < 0 ? r : 0;
}

static int list_one(void *ctx, const char *name, size_t len, uint64_t handle, uint32_t mode,
		    uint64_t cookie)
{
	struct ff_dirlist *l = ctx;
	char *copy;

	(void)cookie;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct ff_dirent *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return l->oom = 1;
		l->v = v;
		l->cap = cap;
	}
	copy = malloc(len + 1);
	if (!copy)
		return l->oom = 1;
	memcpy(copy, name, len);
	copy[len] = '\0';
	l->v[l->n++] = (struct ff_dirent){.name = copy, .len = len, .handle = handle, .mode = mode};
	return 0;
}

int ff_dirent_cmp(const struct ff_dirent *a, const struct ff_dirent *b)
{
	int c = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static int dirent_cmp(const void *a, const void *b)
{
	return ff_dirent_cmp(a, b);
}

int ff_fs_list_dir(struct ff_fs *fs, uint64_t dir, unsigned flags, struct ff_dirlist *out)
{
	int r;

	memset(out, 0, sizeof(*out));
	r = fs->ops->readdir(fs, dir, 0, list_one, out);
	if (r >= 0 && out->oom)
		r = -ENOMEM;
	if (r < 0 && !(flags & FF_LIST_PARTIAL)) {
		ff_dirlist_free(out);
		return r;
	}
	if ((flags & FF_LIST_SORT) && out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), dirent_cmp);
	return r < 0 ? r : 0;
}

void ff_dirlist_free(struct ff_dirlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
