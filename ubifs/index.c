/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The on-flash index: a B+-tree of index nodes (znodes) from the master
 * node's root, whose level-0 branches point at the leaf nodes (inodes,
 * data, entries) by key.  Znodes are read when first needed, checked (the
 * kernel's read_znode checks: child count, level, branch places and key
 * order) and kept in a cache of bounded size; a reader holds a reference
 * on each znode it walks through, so clearing the cache never frees one
 * in use. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

#define DEFAULT_CACHE (32u << 20)

/* Levels strictly fall from a znode to its kids (ubifs_znode_get checks
 * each one's level), so kids never lead back up: no reference cycle. */
void ubifs_znode_put(struct ubifs_znode *z)
{
	if (!z || atomic_fetch_sub(&z->refs, 1) != 1)
		return;
	if (z->kid)
		for (uint32_t i = 0; i < z->cnt; i++)
			ubifs_znode_put(atomic_load(&z->kid[i]));
	free(z);
}

static void put_any(void *z)
{
	ubifs_znode_put(z);
}

void ubifs_zcache_clear(struct ubifs_fs *u)
{
	ubifs_znode_put(u->zroot);
	u->zroot = NULL;
	ff_hmap_free(&u->zcache, put_any);
	u->zcache_bytes = 0;
}

static int bad_branch(struct ubifs_fs *u, const struct ubifs_loc *at, uint32_t i,
		      const struct ubifs_zbr *b, uint32_t level, const char *why)
{
	ff_fs_log(&u->fs, "index node at LEB %u:%u (level %u): branch %u to LEB %u:%u (%u "
		  "bytes, key %u:%08x): %s", at->lnum, at->offs, level, i, b->loc.lnum, b->loc.offs,
		  b->loc.len, b->key.inum, b->key.lo, why);
	return -EIO;
}

static int check_branch(struct ubifs_fs *u, const struct ubifs_loc *at, struct ubifs_znode *z,
			uint32_t i)
{
	const struct ubifs_zbr *b = &z->br[i];
	uint32_t t = UBIFS_KEY_TYPE(b->key);

	if (b->loc.lnum < u->main_first || b->loc.lnum >= u->sb.leb_cnt || b->loc.offs % 8 ||
	    b->loc.offs > u->sb.leb_size || b->loc.len > u->sb.leb_size - b->loc.offs ||
	    b->loc.len < UBIFS_CH_SZ)
		return bad_branch(u, at, i, b, z->level, "outside the main area");
	if (t > UBIFS_XENT_NODE)
		return bad_branch(u, at, i, b, z->level, "unknown key type");
	if (i > 0) {
		int c = ubifs_key_cmp(&z->br[i - 1].key, &b->key);

		/* entries' hashed keys may repeat; no other key may */
		if (c > 0 || (c == 0 && !ubifs_key_hashed(&b->key)))
			return bad_branch(u, at, i, b, z->level, "key out of order");
	}
	return 0;
}

static int decode(struct ubifs_fs *u, const struct ubifs_loc *at, const uint8_t *p,
		  struct ubifs_znode **out)
{
	uint32_t cnt = ff_get_le16(p + IDX_CHILD_CNT), level = ff_get_le16(p + IDX_LEVEL);
	uint32_t bsz = UBIFS_BRANCH_SZ + UBIFS_SK_LEN;
	struct ubifs_znode *z;

	if (cnt < 1 || cnt > u->sb.fanout || level >= UBIFS_MAX_LEVELS ||
	    UBIFS_IDX_NODE_SZ + cnt * bsz != at->len) {
		ff_fs_log(&u->fs, "index node at LEB %u:%u: %u branches at level %u in %u bytes "
			  "(fanout %u)", at->lnum, at->offs, cnt, level, at->len, u->sb.fanout);
		return -EIO;
	}
	z = malloc(sizeof(*z) + cnt * sizeof(z->br[0]) + (level ? cnt * sizeof(*z->kid) : 0));
	if (!z)
		return -ENOMEM;
	atomic_init(&z->refs, 1);
	z->level = level;
	z->cnt = cnt;
	z->kid = NULL;
	if (level) {
		z->kid = (_Atomic(struct ubifs_znode *) *)(void *)&z->br[cnt];
		for (uint32_t i = 0; i < cnt; i++)
			atomic_init(&z->kid[i], NULL);
	}
	for (uint32_t i = 0; i < cnt; i++) {
		const uint8_t *b = p + UBIFS_IDX_NODE_SZ + i * bsz;

		z->br[i].loc = (struct ubifs_loc){ ff_get_le32(b), ff_get_le32(b + 4),
						   ff_get_le32(b + 8) };
		ubifs_key_decode(b + UBIFS_BRANCH_SZ, &z->br[i].key);
		if (check_branch(u, at, z, i)) {
			free(z);
			return -EIO;
		}
	}
	*out = z;
	return 0;
}

static void cache_add(struct ubifs_fs *u, uint64_t id, struct ubifs_znode *z)
{
	size_t bytes = sizeof(*z) + z->cnt * (sizeof(z->br[0]) + sizeof(*z->kid)) + 48;

	pthread_mutex_lock(&u->lock);
	if (u->zcache_bytes + bytes > u->cache_budget)
		ubifs_zcache_clear(u);
	if (!ff_hmap_get(&u->zcache, id) && ff_hmap_put(&u->zcache, id, z) == 0) {
		atomic_fetch_add(&z->refs, 1);
		u->zcache_bytes += bytes;
	}
	pthread_mutex_unlock(&u->lock);
}

int ubifs_znode_get(struct ubifs_fs *u, const struct ubifs_loc *loc, uint32_t want_level,
		    struct ubifs_znode **out)
{
	uint64_t id = (uint64_t)loc->lnum << 32 | loc->offs;
	struct ubifs_znode *z;
	uint8_t *buf;
	int ret;

	pthread_mutex_lock(&u->lock);
	z = ff_hmap_get(&u->zcache, id);
	if (z)
		atomic_fetch_add(&z->refs, 1);
	pthread_mutex_unlock(&u->lock);
	if (!z) {
		if (!(buf = malloc(u->max_znode_len)))
			return -ENOMEM;
		ret = ubifs_read_node(u, loc, UBIFS_IDX_NODE, buf, u->max_znode_len, "index");
		if (!ret)
			ret = decode(u, loc, buf, &z);
		free(buf);
		if (ret)
			return ret;
		cache_add(u, id, z);
	}
	if (want_level != UINT32_MAX && z->level != want_level) {
		ff_fs_log(&u->fs, "index node at LEB %u:%u: level %u where %u was expected",
			  loc->lnum, loc->offs, z->level, want_level);
		ubifs_znode_put(z);
		return -EIO;
	}
	*out = z;
	return 0;
}

/* The last branch whose key is below k (strictly: equal hashed keys may
 * begin in the previous child), or 0. */
static uint32_t branch_below(const struct ubifs_znode *z, const struct ubifs_key *k)
{
	uint32_t lo = 0, hi = z->cnt;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ubifs_key_cmp(&z->br[mid].key, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* Branch i of parent's znode, from its kids or read (and kept there):
 * the parent, held by the walk, holds the kid, so taking a reference
 * after the load is safe. */
static int kid_get(struct ubifs_fs *u, struct ubifs_znode *parent, uint32_t i,
		   struct ubifs_znode **out)
{
	struct ubifs_znode *z = atomic_load(&parent->kid[i]), *none = NULL;
	int ret;

	if (z) {
		atomic_fetch_add(&z->refs, 1);
		*out = z;
		return 0;
	}
	if ((ret = ubifs_znode_get(u, &parent->br[i].loc, parent->level - 1, &z)) < 0)
		return ret;
	atomic_fetch_add(&z->refs, 1); /* the parent's */
	if (!atomic_compare_exchange_strong(&parent->kid[i], &none, z))
		atomic_fetch_sub(&z->refs, 1); /* another walk was first */
	*out = z;
	return 0;
}

/* The root, kept apart from the cache's table: every walk starts there. */
static int root_get(struct ubifs_fs *u, struct ubifs_znode **out)
{
	struct ubifs_znode *z;
	int ret;

	pthread_mutex_lock(&u->lock);
	if ((z = u->zroot))
		atomic_fetch_add(&z->refs, 1);
	pthread_mutex_unlock(&u->lock);
	if (!z) {
		if ((ret = ubifs_znode_get(u, &u->mst.root, UINT32_MAX, &z)) < 0)
			return ret;
		pthread_mutex_lock(&u->lock);
		if (!u->zroot) {
			atomic_fetch_add(&z->refs, 1);
			u->zroot = z;
		}
		pthread_mutex_unlock(&u->lock);
	}
	*out = z;
	return 0;
}

/* parent NULL: the root; else branch i of parent. */
static int push(struct ubifs_fs *u, struct ubifs_fiter *it, struct ubifs_znode *parent,
		uint32_t i)
{
	struct ubifs_znode *z;
	int ret;

	if (it->depth >= UBIFS_MAX_LEVELS || ++it->loads > it->max_loads) {
		ff_fs_log(&u->fs, "index: walk deeper than %u levels or past %llu index nodes "
			  "(a loop?)", UBIFS_MAX_LEVELS, (unsigned long long)it->max_loads);
		return -EIO;
	}
	ret = parent ? kid_get(u, parent, i, &z) : root_get(u, &z);
	if (ret < 0)
		return ret;
	it->path[it->depth] = z;
	it->pos[it->depth] = 0;
	it->depth++;
	return 0;
}

/* From the znode on top, down the branch at its position to level 0,
 * taking each lower znode's first branch (or the one before k). */
static int descend(struct ubifs_fs *u, struct ubifs_fiter *it, const struct ubifs_key *k)
{
	for (;;) {
		struct ubifs_znode *z = it->path[it->depth - 1];
		int ret;

		if (k)
			it->pos[it->depth - 1] = branch_below(z, k);
		if (z->level == 0)
			return 0;
		ret = push(u, it, z, it->pos[it->depth - 1]);
		if (ret < 0)
			return ret;
	}
}

int ubifs_fiter_seek(struct ubifs_fs *u, struct ubifs_fiter *it, const struct ubifs_key *lo)
{
	int ret;

	memset(it, 0, sizeof(*it));
	it->max_loads = u->src->size / UBIFS_IDX_NODE_SZ + 64;
	if ((ret = push(u, it, NULL, 0)) < 0)
		return ret;
	if ((ret = descend(u, it, lo)) < 0)
		return ret;
	/* skip what lies before lo in the first leaf znode */
	while (!it->done && ubifs_key_cmp(&ubifs_fiter_cur(it)->key, lo) < 0)
		if ((ret = ubifs_fiter_next(u, it)) < 0)
			return ret;
	return 0;
}

int ubifs_fiter_next(struct ubifs_fs *u, struct ubifs_fiter *it)
{
	while (it->depth) {
		unsigned top = it->depth - 1;

		if (++it->pos[top] < it->path[top]->cnt)
			return descend(u, it, NULL);
		ubifs_znode_put(it->path[top]);
		it->path[top] = NULL;
		it->depth--;
	}
	it->done = 1;
	return 0;
}

const struct ubifs_zbr *ubifs_fiter_cur(const struct ubifs_fiter *it)
{
	const struct ubifs_znode *z = it->path[it->depth - 1];

	return &z->br[it->pos[it->depth - 1]];
}

void ubifs_fiter_end(struct ubifs_fiter *it)
{
	while (it->depth)
		ubifs_znode_put(it->path[--it->depth]);
	it->done = 1;
}

int ubifs_flash_lookup(struct ubifs_fs *u, const struct ubifs_key *k, struct ubifs_loc *loc)
{
	struct ubifs_fiter it;
	int ret = ubifs_fiter_seek(u, &it, k);

	if (!ret)
		ret = !it.done && ubifs_key_cmp(&ubifs_fiter_cur(&it)->key, k) == 0 ? 0 : -ENOENT;
	if (!ret)
		*loc = ubifs_fiter_cur(&it)->loc;
	ubifs_fiter_end(&it);
	return ret;
}
