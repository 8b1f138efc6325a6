/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tree walk behind `check` and `info` (walk.h).  Per directory it
 * checks what unsquashfs and the kernel rely on: valid names, sorted and
 * unique (2.0 and 1.x wrote directories unsorted: there only unique),
 * entry types and (3.x) inode numbers agreeing with the inodes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "squashfs_legacy/walk.h"

#define MAX_DEPTH 512

struct list {
	struct lsq_dirent *v;
	size_t n, cap;
	int oom;
};

static int collect(void *ctx, const struct lsq_dirent *e, uint64_t index)
{
	struct list *l = ctx;

	(void)index;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct lsq_dirent *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->oom = 1;
			return 1;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *e;
	return 0;
}

static int name_cmp(const struct lsq_dirent *a, const struct lsq_dirent *b)
{
	return ff_bytes_cmp(a->name, a->len, b->name, b->len);
}

static int qcmp(const void *a, const void *b)
{
	return name_cmp(a, b);
}

static int sorted_layout(const struct lsq_rd *rd)
{
	return rd->sb.major == 3 || (rd->sb.major == 2 && rd->sb.minor >= 1);
}

static void check_names(struct lsq_walk *w, struct list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct lsq_dirent *e = &l->v[i];

		if (memchr(e->name, '/', e->len) || memchr(e->name, 0, e->len) ||
		    !strcmp(e->name, ".") || !strcmp(e->name, ".."))
			ff_problemf(&w->out, "%s: entry \"%s\" is not a valid file name", w->path,
				    e->name);
		if (i && sorted_layout(w->rd) && name_cmp(&l->v[i - 1], e) >= 0)
			ff_problemf(&w->out, "%s: entry \"%s\" is duplicate or out of order",
				    w->path, e->name);
	}
	if (sorted_layout(w->rd))
		return;
	qsort(l->v, l->n, sizeof(*l->v), qcmp);
	for (size_t i = 1; i < l->n; i++)
		if (!name_cmp(&l->v[i - 1], &l->v[i]))
			ff_problemf(&w->out, "%s: entry \"%s\" appears twice", w->path,
				    l->v[i].name);
}

/* Reads every byte of a file, so each block is decompressed once. */
static void check_data(struct lsq_walk *w, const struct lsq_inode *in)
{
	size_t bs = w->rd->sb.block_size;
	uint8_t *buf = malloc(bs);
	struct ff_err err = {0};

	if (!buf) {
		ff_problemf(&w->out, "%s: out of memory", w->path);
		return;
	}
	for (uint64_t off = 0; off < in->size; off += bs) {
		if (lsq_file_read(w->rd, in, buf, bs, off, &err) < 0) {
			ff_problemf(&w->out, "%s: %s", w->path, err.msg);
			break;
		}
	}
	free(buf);
}

static void walk_dir(struct lsq_walk *w, const struct lsq_inode *dir, int depth);

static void check_entry(struct lsq_walk *w, const struct lsq_dirent *e,
			const struct lsq_inode *in)
{
	int etype = e->type;

	/* 1.x keeps fifos and sockets under one type. */
	if (w->rd->sb.major == 1 && etype == LSQ_IPC &&
	    (in->type == LSQ_FIFO || in->type == LSQ_SOCKET))
		etype = in->type;
	if (etype != in->type)
		ff_problemf(&w->out, "%s: entry type %d, inode type %d", w->path, e->type,
			    in->type);
	if (w->rd->sb.major == 3 && e->ino != in->ino)
		ff_problemf(&w->out, "%s: entry names inode number %u, the inode holds %u", w->path,
			    e->ino, in->ino);
}

static void remember(struct lsq_walk *w, const struct lsq_inode *in);

/* Counts a name of an inode; 1 the first time the inode is met. */
static int count_link(struct lsq_walk *w, const struct lsq_inode *in)
{
	uint64_t v = 0;
	int first = !ff_hmap_find(&w->seen, &in->ref, sizeof(in->ref), &v);

	v = ((v >> 32) + 1) << 32 | in->nlink;
	if (ff_hmap_set(&w->seen, &in->ref, sizeof(in->ref), v) < 0)
		ff_problemf(&w->out, "%s: out of memory", w->path);
	if (first) {
		w->distinct++;
		w->by_type[in->type & 7]++;
		remember(w, in);
	}
	return first;
}

static void visit(struct lsq_walk *w, const struct lsq_dirent *e, int depth)
{
	struct lsq_inode in;
	struct ff_err err = {0};

	if (lsq_inode_load(w->rd, e->ref, &in, &err) < 0) {
		ff_problemf(&w->out, "%s: %s", w->path, err.msg);
		return;
	}
	check_entry(w, e, &in);
	if (!count_link(w, &in)) {
		if (in.type == LSQ_DIR)
			ff_problemf(&w->out, "%s: directory %llu linked a second time (a loop?)",
				    w->path, (unsigned long long)in.ref);
		return;
	}
	if (in.type == LSQ_DIR)
		walk_dir(w, &in, depth + 1);
	else if (in.type == LSQ_FILE && w->deep)
		check_data(w, &in);
}

static void walk_dir(struct lsq_walk *w, const struct lsq_inode *dir, int depth)
{
	struct list l = {0};
	struct ff_err err = {0};
	size_t plen = strlen(w->path);

	if (depth > MAX_DEPTH) {
		ff_problemf(&w->out, "%s: directories nested deeper than %d", w->path, MAX_DEPTH);
		return;
	}
	if (lsq_dir_walk(w->rd, dir, 0, collect, &l, &err) < 0)
		ff_problemf(&w->out, "%s: %s", w->path[0] ? w->path : "/", err.msg);
	if (l.oom)
		ff_problemf(&w->out, "%s: out of memory", w->path);
	if (w->deep)
		check_names(w, &l);
	for (size_t i = 0; i < l.n; i++) {
		snprintf(w->path + plen, sizeof(w->path) - plen, "/%s", l.v[i].name);
		visit(w, &l.v[i], depth);
		w->path[plen] = 0;
	}
	free(l.v);
}

/* Only 3.x stores link counts (directories' count subdirectories, which
 * the kernel recomputes: not checked). */
static void check_links(struct lsq_walk *w)
{
	for (size_t i = 0; i < w->n_refs; i++) {
		uint64_t v = 0;

		ff_hmap_find(&w->seen, &w->refs[i], sizeof(w->refs[i]), &v);
		if ((v >> 32) != (uint32_t)v)
			ff_problemf(&w->out, "inode %llu: link count %u, %llu names found",
				    (unsigned long long)w->refs[i], (uint32_t)v,
				    (unsigned long long)(v >> 32));
	}
}

static void remember(struct lsq_walk *w, const struct lsq_inode *in)
{
	if (!w->deep || w->rd->sb.major != 3 || in->type == LSQ_DIR)
		return;
	if (w->n_refs == w->cap_refs) {
		size_t cap = w->cap_refs ? w->cap_refs * 2 : 64;
		uint64_t *v = realloc(w->refs, cap * sizeof(*v));

		if (!v)
			return;
		w->refs = v;
		w->cap_refs = cap;
	}
	w->refs[w->n_refs++] = in->ref;
}

long lsq_walk_tree(struct lsq_walk *w)
{
	struct lsq_inode root;
	struct ff_err err = {0};

	w->path[0] = 0;
	if (lsq_inode_load(w->rd, w->rd->sb.root_inode, &root, &err) < 0) {
		ff_problemf(&w->out, "/: %s", err.msg);
		return w->out.count;
	}
	count_link(w, &root);
	walk_dir(w, &root, 0);
	if (w->deep)
		check_links(w);
	return w->out.count;
}

void lsq_walk_free(struct lsq_walk *w)
{
	ff_hmap_clear(&w->seen, NULL);
	free(w->refs);
	w->refs = NULL;
}
