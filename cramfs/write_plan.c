/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Where every listing and inode goes, as mkfs.cramfs places them: the
 * root's listing first, then, taking directories from a stack, each
 * directory's listing, the subdirectories of a listing pushed so that
 * the first of them is listed next (`ls -UR` order).  A directory with
 * no entries has no listing and offset 0. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cramfs/inode.h"
#include "cramfs/super.h"
#include "cramfs/write_priv.h"

const struct ff_node *cw_meta(const struct ff_node *n)
{
	return ff_node_primary(n);
}

uint32_t cw_name_len(const struct ff_node *n)
{
	/* a tree name is at most FF_NAME_MAX bytes (its length is 8-bit) */
	_Static_assert(FF_NAME_MAX <= CW_NAME_MAX, "a tree name may need cutting");
	return n->name_len;
}

uint32_t cw_name_bytes(const struct ff_node *n)
{
	return (cw_name_len(n) + 3) & ~3u;
}

static uint32_t listing_bytes(const struct ff_node *d)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i < d->n_children; i++)
		sum += CR_INODE_SIZE + cw_name_bytes(d->children[i]);
	return sum;
}

/* The inode's size field: what mkfs.cramfs takes from lstat. */
static uint32_t size_field(const struct ff_node *n)
{
	const struct ff_node *m = cw_meta(n);

	switch (m->mode & S_IFMT) {
	case S_IFDIR: return listing_bytes(m);
	case S_IFREG: return m->size > 0xffffff ? 0xffffff : (uint32_t)m->size;
	case S_IFLNK: return (uint32_t)strlen(m->target);
	case S_IFCHR:
	case S_IFBLK: return cr_rdev_encode(m->rdev_major, m->rdev_minor);
	default: return 0;
	}
}

struct stack {
	const struct ff_node **v;
	size_t n, cap;
};

static int push(struct stack *s, const struct ff_node *d)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		const struct ff_node **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = d;
	return 0;
}

static void reverse(const struct ff_node **lo, const struct ff_node **hi)
{
	while (lo < hi) {
		const struct ff_node *t = *lo;

		*lo++ = *--hi;
		*hi = t;
	}
}

/* One directory's listing at *pos; its non-empty subdirectories pushed. */
static int list_dir(struct cw *w, const struct ff_node *d, uint64_t *pos, struct stack *s)
{
	size_t base = s->n;

	for (uint32_t i = 0; i < d->n_children; i++) {
		const struct ff_node *c = d->children[i];
		const struct ff_node *m = cw_meta(c);

		w->e[c->index].pos = (uint32_t)*pos;
		w->e[c->index].size = size_field(c);
		*pos += CR_INODE_SIZE + cw_name_bytes(c);
		if (S_ISDIR(m->mode) && m->n_children && push(s, c))
			return -1;
	}
	reverse(s->v + base, s->v + s->n);
	return 0;
}

static int walk(struct cw *w, uint64_t *pos, struct ff_err *err)
{
	struct stack s = { 0 };
	const struct ff_node *d = ff_tree_root(w->tree);

	for (;;) {
		if (list_dir(w, d, pos, &s)) {
			free(s.v);
			return ff_err_set(err, ENOMEM, "out of memory");
		}
		if (!s.n || *pos > CR_OFFSET_MAX)
			break;
		d = s.v[--s.n];
		w->e[d->index].offset = (uint32_t)*pos;
	}
	free(s.v);
	if (*pos > CR_OFFSET_MAX)
		return ff_err_set(err, EFBIG, "filesystem too big: listings end at %llu (at most %u)",
				  (unsigned long long)*pos, CR_OFFSET_MAX);
	return 0;
}

int cw_plan(struct cw *w, struct ff_err *err)
{
	const struct ff_node *root = ff_tree_root(w->tree);
	uint64_t pos = w->listings_at;

	w->root_size = listing_bytes(root);
	if (walk(w, &pos, err))
		return -1;
	w->hdr_len = (uint32_t)pos;
	return 0;
}

void cw_fill_listings(struct cw *w)
{
	for (const struct ff_node *n = ff_tree_next(w->tree, ff_tree_root(w->tree)); n;
	     n = ff_tree_next(w->tree, n)) {
		const struct ff_node *m = cw_meta(n);
		const struct cw_ent *e = &w->e[n->index];
		struct cr_inode in = { .mode = m->mode, .uid = m->uid, .gid = m->gid,
				       .size = e->size, .name_bytes = cw_name_bytes(n),
				       .offset = e->offset };

		cr_inode_encode(&in, w->o->big_endian, w->hdr + e->pos);
		memcpy(w->hdr + e->pos + CR_INODE_SIZE, ff_node_name(n), cw_name_len(n));
	}
}
