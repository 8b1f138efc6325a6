/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The index as the journal left it: the on-flash index (index.c) under the
 * overlay of replayed changes (overlay.c), the way the kernel's TNC holds
 * both.  A key the journal changed answers from the overlay; a key under a
 * removed range newer than its last change is gone; anything else answers
 * from flash.  Entries (hashed keys) are told apart by name, so a flash
 * entry's node is read to learn its name. */
#include <errno.h>
#include <string.h>

#include "ubifs/ubifs.h"

int ubifs_lookup(struct ubifs_fs *u, const struct ubifs_key *k, struct ubifs_loc *loc)
{
	const struct ubifs_oent *e = ubifs_ov_find(&u->ov, k, NULL, 0);

	if (e) {
		if (e->deleted || ubifs_ov_hidden(&u->ov, k, e->sqnum))
			return -ENOENT;
		*loc = e->loc;
		return 0;
	}
	if (ubifs_ov_hidden(&u->ov, k, 0))
		return -ENOENT;
	return ubifs_flash_lookup(u, k, loc);
}

int ubifs_lookup_name(struct ubifs_fs *u, uint32_t dir, uint32_t type, const char *name,
		      size_t nlen, struct ubifs_dent *out)
{
	struct ubifs_key k = ubifs_key_make(dir, type, ubifs_name_hash(u, name, nlen));
	const struct ubifs_oent *e = ubifs_ov_find(&u->ov, &k, name, nlen);
	struct ubifs_fiter it;
	int ret;

	if (e) {
		if (e->deleted || ubifs_ov_hidden(&u->ov, &k, e->sqnum))
			return -ENOENT;
		return ubifs_read_dent(u, &e->loc, NULL, out);
	}
	if (ubifs_ov_hidden(&u->ov, &k, 0))
		return -ENOENT;
	ret = ubifs_fiter_seek(u, &it, &k);
	while (!ret && !it.done && ubifs_key_cmp(&ubifs_fiter_cur(&it)->key, &k) == 0) {
		ret = ubifs_read_dent(u, &ubifs_fiter_cur(&it)->loc, NULL, out);
		if (!ret && out->nlen == nlen && !memcmp(out->name, name, nlen))
			break;
		if (!ret)
			ret = ubifs_fiter_next(u, &it);
	}
	if (!ret && (it.done || ubifs_key_cmp(&ubifs_fiter_cur(&it)->key, &k) != 0))
		ret = -ENOENT;
	ubifs_fiter_end(&it);
	return ret;
}

/* A flash entry is live unless a range removed it or the journal changed
 * the same key (and name). */
static int flash_live(struct ubifs_fs *u, const struct ubifs_zbr *b, uint8_t *node,
		      int *have_node)
{
	struct ubifs_dent d;
	int ret;

	*have_node = 0;
	if (ubifs_ov_hidden(&u->ov, &b->key, 0))
		return 0;
	if (!ubifs_key_hashed(&b->key))
		return ubifs_ov_find(&u->ov, &b->key, NULL, 0) == NULL;
	ret = ubifs_read_node(u, &b->loc, (int)UBIFS_KEY_TYPE(b->key), node,
			      UBIFS_DENT_NODE_SZ + UBIFS_MAX_NLEN + 1, "entry");
	if (ret < 0)
		return ret;
	if ((ret = ubifs_read_dent(u, &b->loc, node, &d)) < 0)
		return ret;
	*have_node = 1;
	return ubifs_ov_find(&u->ov, &b->key, d.name, d.nlen) == NULL;
}

static int ov_live(const struct ubifs_overlay *ov, size_t i)
{
	return !ov->e[i].deleted && !ubifs_ov_hidden(ov, &ov->e[i].key, ov->e[i].sqnum);
}

int ubifs_walk(struct ubifs_fs *u, const struct ubifs_key *lo, const struct ubifs_key *hi,
	       ubifs_walk_fn fn, void *ctx)
{
	uint8_t node[UBIFS_DENT_NODE_SZ + UBIFS_MAX_NLEN + 1];
	size_t oi = ubifs_ov_lower(&u->ov, lo);
	struct ubifs_fiter it;
	int ret = ubifs_fiter_seek(u, &it, lo), stop = 0;

	while (!ret && !stop) {
		const struct ubifs_zbr *b = it.done ? NULL : ubifs_fiter_cur(&it);
		const struct ubifs_oent *e = oi < u->ov.n ? &u->ov.e[oi] : NULL;
		int have = 0;

		if (b && ubifs_key_cmp(&b->key, hi) > 0)
			b = NULL;
		if (e && ubifs_key_cmp(&e->key, hi) > 0)
			e = NULL;
		if (!b && !e)
			break;
		if (b && (!e || ubifs_key_cmp(&b->key, &e->key) <= 0)) {
			ret = flash_live(u, b, node, &have);
			/* an unreadable entry (logged) is left out, the rest
			 * of the range still read; check names it */
			if (ret < 0 && ret != -ENOMEM) {
				ubifs_damaged(u, &b->loc, "entry");
				ret = 0;
			}
			if (ret > 0)
				stop = fn(ctx, &b->key, &b->loc, have ? node : NULL);
			if (ret >= 0)
				ret = ubifs_fiter_next(u, &it);
		} else {
			if (ov_live(&u->ov, oi))
				stop = fn(ctx, &e->key, &e->loc, NULL);
			oi++;
		}
	}
	ubifs_fiter_end(&it);
	return ret < 0 ? ret : stop < 0 ? stop : 0;
}
