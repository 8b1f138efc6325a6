/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The replay entries applied to the overlay in sequence-number order (the
 * kernel's apply_replay_list), then what an unclean unmount adds: orphans
 * killed (orphan.c) and inode sizes recovered from the data nodes the
 * journal holds (the kernel's ubifs_recover_size_accum/recover_size). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/replay.h"

/* Size recovery: per inode number, the size its last inode node gave and
 * the end of its furthest data node. */
struct size_e {
	uint64_t inum, i_size, d_size;
	int exists, present;
};

struct sizes {
	struct ff_hmap by_inum;
	struct size_e **v;
	size_t n, cap;
};

static struct size_e *size_get(struct sizes *s, uint64_t inum, int create)
{
	struct size_e *e = ff_hmap_get(&s->by_inum, inum);

	if (e && (e->present || create)) {
		if (!e->present)
			*e = (struct size_e){ .inum = inum, .present = 1 };
		return e;
	}
	if (e || !create)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct size_e **v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	if (!(e = calloc(1, sizeof(*e))) || ff_hmap_put(&s->by_inum, inum, e) < 0) {
		free(e);
		return NULL;
	}
	*e = (struct size_e){ .inum = inum, .present = 1 };
	s->v[s->n++] = e;
	return e;
}

static int size_accum(struct sizes *s, const struct ubifs_rent *r)
{
	uint32_t t = UBIFS_KEY_TYPE(r->key);
	struct size_e *e;

	if (t == UBIFS_INO_NODE && r->deletion) {
		if ((e = size_get(s, r->key.inum, 0)) != NULL)
			e->present = 0;
		return 0;
	}
	if (t == UBIFS_TRUN_KEY) {
		if ((e = size_get(s, r->key.inum, 0)) != NULL)
			e->d_size = r->new_size;
		return 0;
	}
	if (t != UBIFS_INO_NODE && t != UBIFS_DATA_NODE)
		return 0;
	if (!(e = size_get(s, r->key.inum, 1)))
		return -ENOMEM;
	if (t == UBIFS_INO_NODE) {
		e->i_size = r->new_size;
		e->exists = 1;
	} else if (r->new_size > e->d_size) {
		e->d_size = r->new_size;
	}
	return 0;
}

/* Inode numbers whose inode (and all it owns) a deletion removed. */
struct removed {
	struct { uint32_t inum; uint64_t sqnum; } *v;
	size_t n, cap;
};

static int remove_ino(struct ubifs_fs *u, struct removed *rm, uint32_t inum, uint64_t sqnum)
{
	if (rm->n == rm->cap) {
		size_t cap = rm->cap ? rm->cap * 2 : 32;
		void *v = realloc(rm->v, cap * sizeof(rm->v[0]));

		if (!v)
			return -ENOMEM;
		rm->v = v;
		rm->cap = cap;
	}
	rm->v[rm->n].inum = inum;
	rm->v[rm->n++].sqnum = sqnum;
	return ubifs_ov_range(&u->ov, inum, 0, UINT32_MAX, sqnum);
}

static int truncate_range(struct ubifs_fs *u, const struct ubifs_rent *r)
{
	uint64_t min = r->new_size / UBIFS_BLOCK_SIZE + (r->new_size % UBIFS_BLOCK_SIZE != 0);
	uint64_t max = r->old_size / UBIFS_BLOCK_SIZE - (r->old_size % UBIFS_BLOCK_SIZE == 0);

	if (min > max || min > UBIFS_KEY_VAL_MASK)
		return 0;
	if (max > UBIFS_KEY_VAL_MASK)
		max = UBIFS_KEY_VAL_MASK;
	return ubifs_ov_range(&u->ov, r->key.inum, ubifs_key_make(0, UBIFS_DATA_NODE, (uint32_t)min).lo,
			      ubifs_key_make(0, UBIFS_DATA_NODE, (uint32_t)max).lo, r->sqnum);
}

static int apply_one(struct ubifs_fs *u, const struct ubifs_rent *v, size_t i,
		     const struct ff_hmap *last, struct removed *rm)
{
	const struct ubifs_rent *r = &v[i];

	if (ubifs_key_hashed(&r->key))
		return ubifs_ov_put(&u->ov, &r->key, r->name, r->nlen, r->sqnum, &r->loc,
				    r->deletion);
	if (!r->deletion)
		return ubifs_ov_put(&u->ov, &r->key, NULL, 0, r->sqnum, &r->loc, 0);
	switch (UBIFS_KEY_TYPE(r->key)) {
	case UBIFS_INO_NODE: {
		size_t at = (uintptr_t)ff_hmap_get(last, r->key.inum) - 1;

		/* linked again later (O_TMPFILE): nothing is removed */
		if (!v[at].deletion)
			return 0;
		return remove_ino(u, rm, r->key.inum, r->sqnum);
	}
	case UBIFS_TRUN_KEY:
		return truncate_range(u, r);
	}
	return ubifs_ov_put(&u->ov, &r->key, NULL, 0, r->sqnum, &r->loc, 1);
}

/* The xattr inodes of a removed inode go with it (tnc_remove_ino): found
 * through its xattr entries on flash and in the journal. */
static int xattr_inum(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		      const uint8_t *node);
struct xrm {
	struct ubifs_fs *u;
	uint64_t sqnum;
};

static int remove_xattr_inodes(struct ubifs_fs *u, const struct removed *rm)
{
	for (size_t i = 0; i < rm->n; i++) {
		struct ubifs_key lo = ubifs_key_make(rm->v[i].inum, UBIFS_XENT_NODE, 0);
		struct ubifs_key hi = ubifs_key_make(rm->v[i].inum, UBIFS_XENT_NODE,
						     UBIFS_KEY_VAL_MASK);
		struct xrm x = { u, rm->v[i].sqnum };
		struct ubifs_fiter it;
		int ret = ubifs_fiter_seek(u, &it, &lo);

		while (!ret && !it.done && ubifs_key_cmp(&ubifs_fiter_cur(&it)->key, &hi) <= 0) {
			ret = xattr_inum(&x, &lo, &ubifs_fiter_cur(&it)->loc, NULL);
			if (!ret)
				ret = ubifs_fiter_next(u, &it);
		}
		ubifs_fiter_end(&it);
		for (size_t j = ubifs_ov_lower(&u->ov, &lo);
		     !ret && j < u->ov.n && ubifs_key_cmp(&u->ov.e[j].key, &hi) <= 0; j++)
			if (!u->ov.e[j].deleted)
				ret = xattr_inum(&x, &lo, &u->ov.e[j].loc, NULL);
		if (ret == -ENOMEM)
			return ret;
	}
	return 0;
}

static int xattr_inum(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		      const uint8_t *node)
{
	struct xrm *x = ctx;
	struct ubifs_dent d;

	(void)k;
	if (ubifs_read_dent(x->u, loc, node, &d) < 0)
		return 0; /* a damaged entry: check reports it */
	if (d.inum > UINT32_MAX)
		return 0;
	return ubifs_ov_range(&x->u->ov, (uint32_t)d.inum, 0, UINT32_MAX, x->sqnum);
}

static int recover_sizes(struct ubifs_fs *u, struct sizes *s)
{
	uint64_t after = u->js.max_sqnum + 2;

	for (size_t i = 0; i < s->n; i++) {
		struct size_e *e = s->v[i];
		struct ubifs_ino ino;

		if (!e->present)
			continue;
		if (!e->exists) {
			if (ubifs_read_inode(u, e->inum, &ino) < 0) {
				/* data nodes without an inode are removed */
				if (ubifs_ov_range(&u->ov, (uint32_t)e->inum, 0, UINT32_MAX, after))
					return -ENOMEM;
				continue;
			}
			e->exists = 1;
			e->i_size = ino.size;
		}
		if (e->i_size < e->d_size) {
			if (ff_hmap_set(&u->ov.sizes, &e->inum, sizeof(e->inum), e->d_size + 1))
				return -ENOMEM;
			u->js.sizes_fixed++;
		}
	}
	ubifs_ov_finish(&u->ov);
	return 0;
}

static void sizes_free(struct sizes *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	ff_hmap_free(&s->by_inum, NULL);
}

int ubifs_replay_apply(struct ubifs_fs *u, const struct ubifs_rent *v, size_t n)
{
	struct ff_hmap last = { 0 };
	struct removed rm = { 0 };
	struct sizes sz = { 0 };
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++)
		ret = ff_hmap_put(&last, v[i].key.inum, (void *)(uintptr_t)(i + 1));
	for (size_t i = 0; i < n && !ret; i++) {
		ret = apply_one(u, v, i, &last, &rm);
		if (!ret && u->js.need_recovery && !ubifs_key_hashed(&v[i].key))
			ret = size_accum(&sz, &v[i]);
		u->js.applied++;
	}
	ubifs_ov_finish(&u->ov);
	if (!ret && rm.n && (ret = remove_xattr_inodes(u, &rm)) == 0)
		ubifs_ov_finish(&u->ov);
	if (!ret && u->js.need_recovery)
		ret = ubifs_orphans(u);
	if (!ret && u->js.need_recovery)
		ret = recover_sizes(u, &sz);
	ff_hmap_free(&last, NULL);
	free(rm.v);
	sizes_free(&sz);
	return ret < 0 ? ret : 0;
}
