/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes for diff/diff.c: both sides' names listed and
 * sorted, merged, and the values of names on both sides compared. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff_walk.h"

struct names {
	char **v;
	size_t n, cap;
	int oom;
};

static int add_name(void *ctx, const char *name, size_t len)
{
	struct names *l = ctx;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return l->oom = 1;
		l->v = v;
		l->cap = cap;
	}
	if (!(l->v[l->n] = strndup(name, len)))
		return l->oom = 1;
	l->n++;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(struct names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static int list_names(struct diff_walk *w, int side, uint64_t h, const char *path,
		      struct names *l)
{
	struct ff_fs *fs = w->s[side].fs;
	int r = fs->ops->listxattr(fs, h, add_name, l);

	if (l->oom)
		r = -ENOMEM;
	if (r < 0)
		return ff_diff_fail(w, side, path, -r, "listing xattrs: ");
	if (l->n > 1) /* qsort wants a non-NULL array even for no names */
		qsort(l->v, l->n, sizeof(*l->v), str_cmp);
	return 0;
}

/* The value as a heap copy (NUL-terminated) of *len bytes, or NULL after
 * ff_diff_fail. */
static char *get_value(struct diff_walk *w, int side, uint64_t h, const char *name,
		       const char *path, size_t *len)
{
	struct ff_fs *fs = w->s[side].fs;
	ssize_t n = fs->ops->getxattr(fs, h, name, NULL, 0), m = 0;
	char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;

	if (n >= 0 && !buf)
		n = -ENOMEM;
	if (buf && (m = fs->ops->getxattr(fs, h, name, buf, (size_t)n)) < 0)
		n = m;
	if (n < 0 || m > n) {
		free(buf);
		ff_diff_fail(w, side, path, n < 0 ? (int)-n : ERANGE, "reading xattrs: ");
		return NULL;
	}
	buf[m] = '\0';
	*len = (size_t)m;
	return buf;
}

/* A change for name: value a (or absent) became b (or absent).  Takes
 * ownership of a and b. */
static void value_change(struct diff_walk *w, const char *name, char *a, size_t la, char *b,
			 size_t lb)
{
	struct ff_diff_change *c = NULL;
	char *copy;

	if (a && b && la == lb && !memcmp(a, b, la)) {
		free(a), free(b);
		return;
	}
	if (!(copy = strdup(name)) || !(c = ff_diff_add(w, FF_DIFF_XATTR))) {
		if (!copy)
			ff_diff_fail(w, 0, "/", ENOMEM, "");
		free(copy), free(a), free(b);
		return;
	}
	c->name = copy;
	c->from = (struct ff_diff_value){.present = a != NULL, .bytes = a, .len = la};
	c->to = (struct ff_diff_value){.present = b != NULL, .bytes = b, .len = lb};
}

/* One step of the merge of the two sorted name lists. */
static void merge_one(struct diff_walk *w, const uint64_t h[2], const char *path,
		      const char *na, const char *nb)
{
	int c = !na ? 1 : !nb ? -1 : strcmp(na, nb);
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;

	if (c <= 0 && !(a = get_value(w, 0, h[0], na, path, &la)))
		return;
	if (c >= 0 && !(b = get_value(w, 1, h[1], nb, path, &lb))) {
		free(a);
		return;
	}
	value_change(w, c <= 0 ? na : nb, a, la, b, lb);
}

void ff_diff_xattrs(struct diff_walk *w, const uint64_t h[2], const char *path)
{
	struct names l[2] = {{0}, {0}};
	size_t i = 0, j = 0;

	if (!ff_diff_wants(w, FF_DIFF_XATTR))
		return;
	if (list_names(w, 0, h[0], path, &l[0]) == 0 && list_names(w, 1, h[1], path, &l[1]) == 0)
		while (!w->failed && (i < l[0].n || j < l[1].n)) {
			const char *na = i < l[0].n ? l[0].v[i] : NULL;
			const char *nb = j < l[1].n ? l[1].v[j] : NULL;
			int c = !na ? 1 : !nb ? -1 : strcmp(na, nb);

			merge_one(w, h, path, na, nb);
			i += c <= 0;
			j += c >= 0;
		}
	free_names(&l[0]);
	free_names(&l[1]);
}
