/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The index: every node's key, sorted (entries with the same hashed key
 * by name, so a collision reads the same everywhere), in full index nodes
 * of `fanout` branches level by level up to a single root, written after
 * the GC LEB in LEBs marked as index LEBs, as mkfs.ubifs lays it out. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

static int cmp_ient(const void *pa, const void *pb)
{
	const struct uw_ient *a = pa, *b = pb;
	uint32_t n = a->nlen < b->nlen ? a->nlen : b->nlen;
	int c;

	if (a->inum != b->inum)
		return a->inum < b->inum ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	c = n ? memcmp(a->name, b->name, n) : 0;
	if (c)
		return c;
	return a->nlen < b->nlen ? -1 : a->nlen > b->nlen;
}

/* Writes one index node over br[0..cnt) and leaves its place in *out (its
 * key is its first branch's). */
static int put_node(struct uw *w, uint8_t *buf, const struct uw_ient *br, uint32_t cnt,
		    uint32_t level, struct uw_ient *out, struct ff_err *err)
{
	uint32_t len = UBIFS_IDX_NODE_SZ + cnt * (UBIFS_BRANCH_SZ + UBIFS_SK_LEN);

	memset(buf, 0, len);
	ff_put_le16(buf + IDX_CHILD_CNT, (uint16_t)cnt);
	ff_put_le16(buf + IDX_LEVEL, (uint16_t)level);
	for (uint32_t i = 0; i < cnt; i++) {
		uint8_t *b = buf + IDX_BRANCHES + i * (UBIFS_BRANCH_SZ + UBIFS_SK_LEN);

		ff_put_le32(b, br[i].lnum);
		ff_put_le32(b + 4, br[i].offs);
		ff_put_le32(b + 8, br[i].len);
		ff_put_le32(b + 12, br[i].inum);
		ff_put_le32(b + 16, br[i].lo);
	}
	uw_node_finish(buf, len, UBIFS_IDX_NODE, ++w->sqnum);
	*out = (struct uw_ient){ br[0].inum, br[0].lo, NULL, 0, 0, 0, len };
	if (uw_head_place(w, buf, len, &out->lnum, &out->offs, err))
		return -1;
	w->index_size += UW_ALIGN(len, 8);
	return 0;
}

/* One level: the n entries of the level below in ceil(n / fanout) nodes,
 * their places written over the first entries of v. */
static int put_level(struct uw *w, uint8_t *buf, struct uw_ient *v, size_t *n, uint32_t level,
		     struct ff_err *err)
{
	size_t out = 0;

	for (size_t i = 0; i < *n; i += w->g.fanout) {
		size_t cnt = *n - i < w->g.fanout ? *n - i : w->g.fanout;
		struct uw_ient e;

		if (put_node(w, buf, v + i, (uint32_t)cnt, level, &e, err))
			return -1;
		v[out++] = e;
	}
	*n = out;
	return 0;
}

int uw_index_write(struct uw *w, struct ff_err *err)
{
	struct uw_ient *v = w->idx.data;
	size_t n = w->idx.len;
	uint32_t level = 0;
	uint8_t *buf = malloc(UBIFS_IDX_NODE_SZ + w->g.fanout * (UBIFS_BRANCH_SZ + UBIFS_SK_LEN));

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory for an index node");
	qsort(v, n, sizeof(*v), cmp_ient);
	w->head_flags = UW_LPROPS_INDEX;
	do {
		if (put_level(w, buf, v, &n, level++, err)) {
			free(buf);
			return -1;
		}
	} while (n > 1);
	free(buf);
	w->root_lnum = v[0].lnum;
	w->root_offs = v[0].offs;
	w->root_len = v[0].len;
	w->ihead_lnum = w->head_lnum;
	w->ihead_offs = UW_ALIGN(w->head_offs, w->g.min_io);
	return uw_head_flush(w, err);
}
