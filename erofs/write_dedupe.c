/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* -E dedupe between files that differ: an extent may take a pcluster
 * written before for another file when its bytes start with that
 * pcluster's decompressed bytes.
 *
 * The on-disk rules this relies on (the kernel's erofs_fs.h and zmap.c):
 * - a HEAD lcluster's block address may be any block: two extents of two
 *   inodes on one pcluster need no more than full (8-byte) indexes, whose
 *   block addresses are explicit (compact ones count blocks from a base);
 * - an extent decodes from its pcluster's start and keeps llen bytes
 *   (llen: up to the next head, or the file's end); when the pcluster
 *   decodes to more than that, the head's advise carries PARTIAL_REF
 *   (0x8000) and the kernel decodes partially instead of requiring the
 *   whole output; only full indexes carry that bit;
 * - with big pclusters the block count sits in the first NONHEAD after
 *   the head, so an extent on a pcluster of more than one block must
 *   reach the lcluster after its head's;
 * - no lcluster holds two heads: every extent but the last crosses an
 *   lcluster boundary (these are at least a block long, so they do);
 * - the superblock's incompat bit 0x20 (FRAGMENTS, also named DEDUPE)
 *   says an image may hold such extents.
 *
 * The table: every pcluster written for a regular file (not an inline
 * tail, not a fragment; a block stored as is when it holds a whole block
 * of input, taken whole then: a plain extent is never partial) under a
 * rolling hash of its first block of decompressed bytes; a bitmap in
 * front of it keeps the test at each byte cheap.  A candidate is
 * confirmed by a crc32c of that block, then the bytes themselves (read
 * back from the source file) are compared and the match is extended as
 * far as the pcluster's bytes go.  One pass over a file lists its
 * matches, left to right, not overlapping.  The table grows and is read
 * only on the main thread, in pre-order, so the image does not depend on
 * -j.  write_compress.c compresses a file with matches again: a fresh
 * extent ends where a match starts, and the match is an extent on the
 * earlier pcluster. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/crc.h"
#include "common/hmap.h"
#include "common/vec.h"
#include "erofs/write_priv.h"

#define DD_FILTER_BITS 23
#define DD_MULT 0x100000001b3ull      /* odd: invertible mod 2^64 */
#define DD_MIX 0x9e3779b97f4a7c15ull
#define DD_MAX_MISSES 256             /* comparisons that found no match, per file */

struct dd_item {
	uint64_t rh;                  /* rolling hash of the first block */
	uint64_t lstart;              /* where its bytes are in the source file */
	uint32_t ino;                 /* index of that file's record */
	uint32_t dlen;                /* bytes the pcluster decodes to */
	uint32_t blk, cblks;
	uint32_t crc;                 /* crc32c of the first block */
	uint32_t plain;               /* a block stored as is (from its start) */
};

struct ew_dd {
	uint64_t *filter;
	struct ff_hset set;
	struct ff_vec items;          /* struct dd_item */
	uint64_t pow;                 /* DD_MULT^(block - 1) */
	uint8_t *cache;               /* the bytes of item cache_id (+1; 0 none) */
	uint32_t cache_id;
};

int ew_dedupe_init(struct ew *w, struct ff_err *err)
{
	struct ew_dd *d = calloc(1, sizeof(*d));

	if (!d || !(d->filter = calloc((1u << DD_FILTER_BITS) / 64, 8)) ||
	    !(d->cache = malloc(w->ext_cap))) {
		if (d)
			free(d->filter);
		free(d);
		return ff_err_set(err, ENOMEM, "dedupe table: out of memory");
	}
	ff_vec_init(&d->items, sizeof(struct dd_item));
	d->pow = 1;
	for (uint32_t i = 1; i < w->blksz; i++)
		d->pow *= DD_MULT;
	w->dd = d;
	return 0;
}

void ew_dedupe_free(struct ew *w)
{
	if (!w->dd)
		return;
	free(w->dd->filter);
	free(w->dd->cache);
	ff_hset_free(&w->dd->set);
	ff_vec_free(&w->dd->items);
	free(w->dd);
	w->dd = NULL;
}

static uint64_t rh_init(const uint8_t *b, uint32_t len)
{
	uint64_t h = 0;

	for (uint32_t i = 0; i < len; i++)
		h = h * DD_MULT + b[i];
	return h;
}

static int filter_has(const struct ew_dd *d, uint64_t rh)
{
	uint64_t k = (rh * DD_MIX) >> (64 - DD_FILTER_BITS);

	return (int)(d->filter[k >> 6] >> (k & 63) & 1);
}

static uint32_t set_hash(uint64_t rh)
{
	return (uint32_t)((rh ^ rh >> 29) * DD_MIX >> 32);
}

struct find_ctx {
	const struct ew_dd *d;
	uint64_t rh;
};

static int same_rh(void *ctx, uint32_t id)
{
	struct find_ctx *f = ctx;

	return FF_VEC_AT(&f->d->items, struct dd_item, id)->rh == f->rh;
}

/* The item whose first block hashes to rh and has that crc (NULL none). */
static const struct dd_item *lookup(const struct ew_dd *d, uint64_t rh, const uint8_t *b,
				    uint32_t blksz)
{
	struct find_ctx f = { d, rh };
	const struct dd_item *it;
	uint32_t id;

	if (!filter_has(d, rh) || ff_hset_find(&d->set, set_hash(rh), same_rh, &f, &id) != 1)
		return NULL;
	it = FF_VEC_AT(&d->items, struct dd_item, id);
	return ff_crc32c(0, b, blksz) == it->crc ? it : NULL;
}

/* The item's decompressed bytes, read back from its source file. */
static const uint8_t *item_bytes(struct ew *w, uint32_t id, struct ff_err *err)
{
	struct ew_dd *d = w->dd;
	const struct dd_item *it = FF_VEC_AT(&d->items, struct dd_item, id);
	const struct ew_ino *src = &w->inos[it->ino];
	struct ff_data *data;
	int r;

	if (d->cache_id == id + 1)
		return d->cache;
	d->cache_id = 0;
	if (!(data = ff_tree_open_data(w->tree, src->n, err)))
		return NULL;
	r = ew_read_at(data, src, d->cache, it->dlen, it->lstart, err);
	ff_data_close(data);
	if (r)
		return NULL;
	d->cache_id = id + 1;
	return d->cache;
}

/* The bytes at s equal to the start of item it: their count (0 none). */
static int64_t match_len(struct ew *w, const struct dd_item *it, const uint8_t *buf,
			 uint64_t size, uint64_t s, struct ff_err *err)
{
	uint32_t id = (uint32_t)(it - FF_VEC_DATA(&w->dd->items, struct dd_item));
	const uint8_t *p = item_bytes(w, id, err);
	uint64_t max = size - s < it->dlen ? size - s : it->dlen, m = 0;

	if (!p)
		return -1;
	while (m < max && p[m] == buf[s + m])
		m++;
	return m >= w->blksz ? (int64_t)m : 0;
}

/* A match of m bytes at s on it, as a reference extent: one the map
 * can say (a pcluster of more than a block needs its block count in the
 * lcluster after its head's, so the extent reaches that one). */
static int take(struct ew *w, const struct dd_item *it, uint64_t s, uint64_t m,
		struct ff_vec *out, struct ff_err *err)
{
	struct ew_match x = { { .lstart = s, .cblks = it->cblks, .ref = 1, .blk = it->blk,
				.dlen = it->dlen, .plain = (uint8_t)it->plain,
				.partial = m < it->dlen }, m };

	if (it->cblks > 1 && (s & (w->blksz - 1)) + m < 2ull * w->blksz)
		return 0;
	if (ff_vec_push(out, &x))
		return ff_err_set(err, ENOMEM, "dedupe matches: out of memory");
	return 1;
}

int ew_dedupe_scan(struct ew *w, const uint8_t *buf, uint64_t size, struct ff_vec *out,
		   struct ff_err *err)
{
	const struct ew_dd *d = w->dd;
	uint64_t s = 0, rh = 0;
	int fresh = 1, misses = 0;

	if (!d || !d->items.len)
		return 0;
	while (s + w->blksz <= size) {
		const struct dd_item *it;
		int64_t m = 0;
		int k = 0;

		if (fresh)
			rh = rh_init(buf + s, w->blksz);
		fresh = 0;
		if (filter_has(d, rh) && (it = lookup(d, rh, buf + s, w->blksz)) &&
		    misses < DD_MAX_MISSES) {
			if ((m = match_len(w, it, buf, size, s, err)) < 0 ||
			    (m > 0 && (k = take(w, it, s, (uint64_t)m, out, err)) < 0))
				return -1;
			misses += !k;
		}
		if (k) {
			s += (uint64_t)m;
			fresh = 1;
		} else if (s + w->blksz < size) {
			rh = (rh - buf[s] * d->pow) * DD_MULT + buf[s + w->blksz];
			s++;
		} else {
			break;
		}
	}
	return 0;
}

/* An item's set hash again, for the set to grow. */
static uint32_t item_hash(void *ctx, uint32_t id)
{
	const struct ew_dd *d = ctx;

	return set_hash(FF_VEC_AT(&d->items, struct dd_item, id)->rh);
}

static int add_item(struct ew *w, const struct dd_item *it, struct ff_err *err)
{
	struct ew_dd *d = w->dd;
	struct find_ctx f = { d, it->rh };
	uint64_t k = (it->rh * DD_MIX) >> (64 - DD_FILTER_BITS);
	uint32_t id;

	if (ff_hset_find(&d->set, set_hash(it->rh), same_rh, &f, &id) == 1)
		return 0; /* the first pcluster with these first bytes stays */
	if (d->items.len > FF_HSET_ID_MAX)
		return 0; /* the table is full: later pclusters are not matched */
	if (ff_vec_push(&d->items, it) ||
	    ff_hset_add(&d->set, set_hash(it->rh), (uint32_t)(d->items.len - 1), item_hash, d))
		return ff_err_set(err, ENOMEM, "dedupe table: out of memory");
	d->filter[k >> 6] |= 1ull << (k & 63);
	return 0;
}

int ew_dedupe_add(struct ew *w, const struct ew_ino *e, const uint8_t *buf,
		  const struct ew_extent *x, size_t n, int has_tail, struct ff_err *err)
{
	uint32_t blk = e->blkaddr;

	for (size_t k = 0; k < n; k++) {
		const struct ew_extent *c = &x[k];

		if (c->ref)
			continue;
		/* a block stored as is, whole: taken whole (a plain extent
		 * is never partial) */
		if (!c->frag && !(has_tail && k + 1 == n) && c->dlen >= w->blksz) {
			struct dd_item it = { rh_init(buf + c->lstart, w->blksz), c->lstart,
					      (uint32_t)(e - w->inos), c->dlen, blk, c->cblks,
					      ff_crc32c(0, buf + c->lstart, w->blksz), c->plain };

			if (add_item(w, &it, err))
				return -1;
		}
		blk += c->cblks;
	}
	return 0;
}
