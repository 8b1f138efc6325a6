/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The change records of diff/diff.c and the comparisons of one attribute
 * each: numbers, symlink targets, contents (streamed) and hard links.
 * Values put in a record are copies owned by the walk and freed once the
 * caller's callback has returned. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff_walk.h"

int ff_diff_fail(struct diff_walk *w, int side, const char *path, int code, const char *what)
{
	if (!w->failed)
		ff_err_set(w->err, code, "%s: %s: %s%s", w->s[side].name, path, what,
			   strerror(code));
	w->failed = 1;
	w->stop = 1;
	return -1;
}

int ff_diff_wants(const struct diff_walk *w, enum ff_diff_attr a)
{
	return !(w->ignore & (1u << a));
}

struct ff_diff_change *ff_diff_add(struct diff_walk *w, enum ff_diff_attr attr)
{
	if (w->n_ch == w->cap_ch) {
		size_t cap = w->cap_ch ? 2 * w->cap_ch : 16;
		struct ff_diff_change *v = realloc(w->ch, cap * sizeof(*v));

		if (!v) {
			ff_diff_fail(w, 0, "/", ENOMEM, "");
			return NULL;
		}
		w->ch = v;
		w->cap_ch = cap;
	}
	w->ch[w->n_ch] = (struct ff_diff_change){.attr = attr};
	return &w->ch[w->n_ch++];
}

void ff_diff_clear(struct diff_walk *w)
{
	size_t i;

	for (i = 0; i < w->n_ch; i++) {
		free((void *)w->ch[i].name);
		free((void *)w->ch[i].from.bytes);
		free((void *)w->ch[i].to.bytes);
	}
	w->n_ch = 0;
}

void ff_diff_num(struct diff_walk *w, enum ff_diff_attr attr, uint64_t from, uint64_t to)
{
	struct ff_diff_change *c;

	if (from == to || !ff_diff_wants(w, attr) || !(c = ff_diff_add(w, attr)))
		return;
	c->from = (struct ff_diff_value){.present = 1, .num = from, .time = (int64_t)from};
	c->to = (struct ff_diff_value){.present = 1, .num = to, .time = (int64_t)to};
}

/* A byte-string change; takes ownership of from and to (NULL = absent). */
static void bytes_change(struct diff_walk *w, enum ff_diff_attr attr, void *from,
			 size_t from_len, void *to, size_t to_len)
{
	struct ff_diff_change *c = ff_diff_add(w, attr);

	if (!c) {
		free(from), free(to);
		return;
	}
	c->from = (struct ff_diff_value){.present = from != NULL, .bytes = from, .len = from_len};
	c->to = (struct ff_diff_value){.present = to != NULL, .bytes = to, .len = to_len};
}

/* The symlink target as a heap copy of *len bytes, or NULL after ff_diff_fail. */
static char *read_target(struct diff_walk *w, int side, uint64_t h, const char *path,
			 size_t *len)
{
	struct ff_fs *fs = w->s[side].fs;
	size_t cap = 256;
	char *buf = NULL, *p;
	ssize_t n;

	for (;;) {
		if (!(p = realloc(buf, cap))) {
			free(buf);
			ff_diff_fail(w, side, path, ENOMEM, "");
			return NULL;
		}
		buf = p;
		n = fs->ops->readlink(fs, h, buf, cap);
		if (n < 0) {
			free(buf);
			ff_diff_fail(w, side, path, (int)-n, "reading the link target: ");
			return NULL;
		}
		if ((size_t)n < cap)
			break; /* room for the NUL the records promise */
		cap = (size_t)n + 1;
	}
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

void ff_diff_target(struct diff_walk *w, const uint64_t h[2], const char *path)
{
	size_t la, lb;
	char *a, *b;

	if (!ff_diff_wants(w, FF_DIFF_TARGET) || !(a = read_target(w, 0, h[0], path, &la)))
		return;
	if (!(b = read_target(w, 1, h[1], path, &lb))) {
		free(a);
		return;
	}
	if (la == lb && !memcmp(a, b, la))
		free(a), free(b);
	else
		bytes_change(w, FF_DIFF_TARGET, a, la, b, lb);
}

/* Bytes read at off (short only at the end), or -1 after ff_diff_fail. */
static ssize_t read_chunk(struct diff_walk *w, int side, uint64_t h, const char *path,
			  uint64_t off)
{
	struct ff_fs *fs = w->s[side].fs;
	ssize_t n = fs->ops->read(fs, h, w->buf[side], DIFF_CHUNK, off);

	return n < 0 ? ff_diff_fail(w, side, path, (int)-n, "reading: ") : n;
}

static size_t same_prefix(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Streams both files (of equal size) chunk by chunk; a read that ends
 * early on one side is a difference at that offset. */
void ff_diff_contents(struct diff_walk *w, const uint64_t h[2], const char *path)
{
	struct ff_diff_change *c;
	uint64_t off = 0;
	ssize_t na, nb;
	size_t same;

	if (!ff_diff_wants(w, FF_DIFF_CONTENTS))
		return;
	for (;;) {
		if ((na = read_chunk(w, 0, h[0], path, off)) < 0 ||
		    (nb = read_chunk(w, 1, h[1], path, off)) < 0)
			return;
		same = same_prefix(w->buf[0], w->buf[1], (size_t)(na < nb ? na : nb));
		if (same < (size_t)na || same < (size_t)nb)
			break;
		if (na == 0)
			return;
		off += (uint64_t)na;
	}
	if ((c = ff_diff_add(w, FF_DIFF_CONTENTS)))
		c->offset = off + same;
}

/* The earlier path of the same object met in this walk (a heap copy), or
 * NULL when path is its first name, which is then remembered. */
static char *link_of(struct diff_walk *w, int side, uint64_t h, const char *path, int *oom)
{
	struct ff_hmap *m = &w->s[side].links;
	const char *first = ff_hmap_get(m, h);
	char *p;

	if (first) {
		if (!(p = strdup(first)))
			*oom = 1;
		return p;
	}
	p = strdup(path);
	if (!p || ff_hmap_put(m, h, p) < 0) {
		free(p);
		*oom = 1;
	}
	return NULL;
}

void ff_diff_link(struct diff_walk *w, const uint64_t h[2], const char *path)
{
	int oom = 0;
	char *a, *b;

	if (!ff_diff_wants(w, FF_DIFF_LINK))
		return;
	a = link_of(w, 0, h[0], path, &oom);
	b = link_of(w, 1, h[1], path, &oom);
	if (oom) {
		free(a), free(b);
		ff_diff_fail(w, 0, path, ENOMEM, "");
	} else if ((a || b) && (!a || !b || strcmp(a, b))) {
		bytes_change(w, FF_DIFF_LINK, a, a ? strlen(a) : 0, b, b ? strlen(b) : 0);
	} else {
		free(a), free(b);
	}
}
