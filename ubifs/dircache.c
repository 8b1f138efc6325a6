/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory listings: a directory's entries (hashed keys, so their order
 * is the hash order the kernel's readdir also gives) gathered once and
 * kept for the next calls, because a server reads a large directory in
 * several calls, each resuming at a cookie (the entry's index + 1). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/ubifs.h"

#define DIRS_KEPT 8

struct ubifs_dircache {
	struct ubifs_dlist *v[DIRS_KEPT];
	unsigned next;
};

void ubifs_dir_put(struct ubifs_dlist *l)
{
	if (!l || atomic_fetch_sub(&l->refs, 1) != 1)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	free(l);
}

struct gather {
	struct ubifs_fs *u;
	struct ubifs_dlist *l;
	int err;
};

static int gather_one(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		      const uint8_t *node)
{
	struct gather *g = ctx;
	struct ubifs_dlist *l = g->l;
	struct ubifs_dent d;
	int ret = ubifs_read_dent(g->u, loc, node, &d);

	if (ret < 0 || ubifs_key_cmp(&d.key, k)) {
		g->err = ret < 0 ? ret : -EIO;
		return 1;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct ubifs_dl_ent *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return g->err = -ENOMEM, 1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = (struct ubifs_dl_ent){ strdup(d.name), d.nlen, d.inum, d.type };
	if (!l->v[l->n].name)
		return g->err = -ENOMEM, 1;
	l->n++;
	return 0;
}

static int by_name(const void *pa, const void *pb)
{
	const struct ubifs_dl_ent *a = pa, *b = pb;
	int c = memcmp(a->name, b->name, a->nlen < b->nlen ? a->nlen : b->nlen);

	return c ? c : (a->nlen > b->nlen) - (a->nlen < b->nlen);
}

static int gather(struct ubifs_fs *u, uint64_t dir, struct ubifs_dlist **out)
{
	struct ubifs_key lo = ubifs_key_make((uint32_t)dir, UBIFS_DENT_NODE, 0);
	struct ubifs_key hi = ubifs_key_make((uint32_t)dir, UBIFS_DENT_NODE, UBIFS_KEY_VAL_MASK);
	struct gather g = { u, calloc(1, sizeof(struct ubifs_dlist)), 0 };
	int ret;

	if (!g.l)
		return -ENOMEM;
	g.l->dir = dir;
	atomic_init(&g.l->refs, 1);
	ret = ubifs_walk(u, &lo, &hi, gather_one, &g);
	if (ret < 0 || g.err < 0) {
		ubifs_dir_put(g.l);
		return ret < 0 ? ret : g.err;
	}
	if (g.l->n)
		qsort(g.l->v, g.l->n, sizeof(g.l->v[0]), by_name);
	*out = g.l;
	return 0;
}

int ubifs_dir_get(struct ubifs_fs *u, uint64_t dir, struct ubifs_dlist **out)
{
	struct ubifs_dircache *c;
	int ret;

	pthread_mutex_lock(&u->lock);
	c = u->dirs;
	for (unsigned i = 0; c && i < DIRS_KEPT; i++)
		if (c->v[i] && c->v[i]->dir == dir) {
			atomic_fetch_add(&c->v[i]->refs, 1);
			*out = c->v[i];
			pthread_mutex_unlock(&u->lock);
			return 0;
		}
	pthread_mutex_unlock(&u->lock);
	if ((ret = gather(u, dir, out)) < 0)
		return ret;
	pthread_mutex_lock(&u->lock);
	if (!u->dirs)
		u->dirs = calloc(1, sizeof(*u->dirs));
	if ((c = u->dirs) != NULL) {
		ubifs_dir_put(c->v[c->next]);
		atomic_fetch_add(&(*out)->refs, 1);
		c->v[c->next] = *out;
		c->next = (c->next + 1) % DIRS_KEPT;
	}
	pthread_mutex_unlock(&u->lock);
	return 0;
}

void ubifs_dircache_free(struct ubifs_fs *u)
{
	if (!u->dirs)
		return;
	for (unsigned i = 0; i < DIRS_KEPT; i++)
		ubifs_dir_put(u->dirs->v[i]);
	free(u->dirs);
	u->dirs = NULL;
}
