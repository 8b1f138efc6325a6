/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The journal's changes over the on-flash index, held in memory.  While
 * the journal is replayed (in sequence-number order, as the kernel does)
 * each change to a key (with its name, for entries) replaces the last
 * one; removed ranges (truncations, deleted inodes) are kept as ranges.
 * Once replayed the entries are sorted by key and name and never change,
 * so lookups need no lock.
 *
 * Why ranges are kept apart: a range removes every flash entry under it,
 * but a journal entry only if the entry is older than the range, and the
 * sequence numbers say which. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/ubifs.h"

/* The map key: the 8 key bytes in memory order, then the name. */
static size_t map_key(const struct ubifs_key *k, const char *name, size_t nlen, uint8_t *out)
{
	memcpy(out, &k->inum, 4);
	memcpy(out + 4, &k->lo, 4);
	if (name)
		memcpy(out + 8, name, nlen);
	return 8 + (name ? nlen : 0);
}

static int grow(struct ubifs_overlay *ov)
{
	size_t cap = ov->cap ? ov->cap * 2 : 256;
	struct ubifs_oent *e = realloc(ov->e, cap * sizeof(*e));

	if (!e)
		return -ENOMEM;
	ov->e = e;
	ov->cap = cap;
	return 0;
}

static int add(struct ubifs_overlay *ov, const uint8_t *mk, size_t mlen,
	       const struct ubifs_key *k, const char *name, size_t nlen)
{
	struct ubifs_oent *e;

	if (ov->n == ov->cap && grow(ov) < 0)
		return -ENOMEM;
	e = &ov->e[ov->n];
	memset(e, 0, sizeof(*e));
	e->key = *k;
	if (name) {
		if (!(e->name = malloc(nlen + 1)))
			return -ENOMEM;
		memcpy(e->name, name, nlen);
		e->name[nlen] = 0;
		e->nlen = (uint8_t)nlen;
	}
	if (ff_hmap_set(&ov->where, mk, mlen, ov->n + 1) < 0) {
		free(e->name);
		return -ENOMEM;
	}
	ov->n++;
	return 0;
}

int ubifs_ov_put(struct ubifs_overlay *ov, const struct ubifs_key *k, const char *name,
		 size_t nlen, uint64_t sqnum, const struct ubifs_loc *loc, int deleted)
{
	uint8_t mk[8 + UBIFS_MAX_NLEN];
	size_t mlen = map_key(k, name, nlen, mk);
	uint64_t at;
	struct ubifs_oent *e;

	if (nlen > UBIFS_MAX_NLEN)
		return -EINVAL;
	if (!ff_hmap_find(&ov->where, mk, mlen, &at)) {
		if (add(ov, mk, mlen, k, name, nlen) < 0)
			return -ENOMEM;
		at = ov->n;
	}
	e = &ov->e[at - 1];
	e->sqnum = sqnum;
	e->deleted = (uint8_t)(deleted != 0);
	if (loc)
		e->loc = *loc;
	return 0;
}

int ubifs_ov_range(struct ubifs_overlay *ov, uint32_t inum, uint32_t lo, uint32_t hi,
		   uint64_t sqnum)
{
	if (ov->nr == ov->rcap) {
		size_t cap = ov->rcap ? ov->rcap * 2 : 32;
		struct ubifs_orange *r = realloc(ov->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		ov->r = r;
		ov->rcap = cap;
	}
	ov->r[ov->nr++] = (struct ubifs_orange){ inum, lo, hi, sqnum };
	return 0;
}

static int name_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	return c ? c : (an > bn) - (an < bn);
}

static int ent_cmp(const void *pa, const void *pb)
{
	const struct ubifs_oent *a = pa, *b = pb;
	int c = ubifs_key_cmp(&a->key, &b->key);

	if (c || !a->name || !b->name)
		return c;
	return name_cmp(a->name, a->nlen, b->name, b->nlen);
}

static int range_cmp(const void *pa, const void *pb)
{
	const struct ubifs_orange *a = pa, *b = pb;

	return (a->inum > b->inum) - (a->inum < b->inum);
}

void ubifs_ov_finish(struct ubifs_overlay *ov)
{
	ff_hmap_clear(&ov->where, NULL);
	if (ov->n)
		qsort(ov->e, ov->n, sizeof(ov->e[0]), ent_cmp);
	if (ov->nr)
		qsort(ov->r, ov->nr, sizeof(ov->r[0]), range_cmp);
}

size_t ubifs_ov_lower(const struct ubifs_overlay *ov, const struct ubifs_key *k)
{
	size_t lo = 0, hi = ov->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ubifs_key_cmp(&ov->e[mid].key, k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ubifs_oent *ubifs_ov_find(const struct ubifs_overlay *ov, const struct ubifs_key *k,
				       const char *name, size_t nlen)
{
	for (size_t i = ubifs_ov_lower(ov, k); i < ov->n; i++) {
		const struct ubifs_oent *e = &ov->e[i];

		if (ubifs_key_cmp(&e->key, k))
			return NULL;
		if (!name || !e->name)
			return e;
		if (!name_cmp(e->name, e->nlen, name, nlen))
			return e;
	}
	return NULL;
}

int ubifs_ov_hidden(const struct ubifs_overlay *ov, const struct ubifs_key *k, uint64_t sqnum)
{
	size_t lo = 0, hi = ov->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ov->r[mid].inum < k->inum)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ov->nr && ov->r[lo].inum == k->inum; lo++)
		if (ov->r[lo].lo <= k->lo && k->lo <= ov->r[lo].hi && ov->r[lo].sqnum > sqnum)
			return 1;
	return 0;
}

void ubifs_ov_free(struct ubifs_overlay *ov)
{
	for (size_t i = 0; i < ov->n; i++)
		free(ov->e[i].name);
	free(ov->e);
	free(ov->r);
	ff_hmap_clear(&ov->where, NULL);
	ff_hmap_clear(&ov->sizes, NULL);
	memset(ov, 0, sizeof(*ov));
}
