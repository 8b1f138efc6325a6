/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The journal replayed as the kernel's replay.c replays it at mount: every
 * bud the log names is scanned from its start offset; each inode, data,
 * entry and truncation node becomes a replay entry; the entries are sorted
 * by sequence number and applied in that order to the overlay (overlay.c).
 * An inode with no links removes the inode and all it owns (unless a later
 * node of the same inode number links it again, as O_TMPFILE allows); a
 * truncation removes the data blocks past the new size; an entry naming
 * inode 0 removes the entry.
 *
 * After an unclean unmount (the master node's dirty flag) the last bud of
 * each journal head may end in a node cut short by the power loss: as in
 * the kernel's recovery that bud ends there, and an unfinished group of
 * nodes (one operation's nodes) at its end is dropped with it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/replay.h"

struct rlist {
	struct ubifs_rent *v;
	size_t n, cap;
};

static int rl_add(struct rlist *l, const struct ubifs_rent *r)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct ubifs_rent *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *r;
	return 0;
}

static void rl_free(struct rlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
}

/* ubifs_validate_entry's checks. */
static int entry_ok(const struct ubifs_snode *n)
{
	uint32_t nlen = ff_get_le16(n->p + DENT_NLEN);
	const uint8_t *name = n->p + UBIFS_DENT_NODE_SZ;

	if (n->ch.len != nlen + UBIFS_DENT_NODE_SZ + 1 || n->p[DENT_TYPE] >= UBIFS_ITYPES ||
	    nlen > UBIFS_MAX_NLEN || name[nlen] != 0 ||
	    ff_get_le64(n->p + DENT_INUM) > 0xffffffffull)
		return 0;
	return n->ch.type != UBIFS_XENT_NODE || memchr(name, 0, nlen) == NULL;
}

static int entry_rent(const struct ubifs_snode *n, struct ubifs_rent *r)
{
	uint32_t nlen = ff_get_le16(n->p + DENT_NLEN);

	r->deletion = ff_get_le64(n->p + DENT_INUM) == 0;
	r->nlen = (uint8_t)nlen;
	r->name = malloc(nlen + 1);
	if (!r->name)
		return -ENOMEM;
	memcpy(r->name, n->p + UBIFS_DENT_NODE_SZ, nlen);
	r->name[nlen] = 0;
	return 0;
}

static int trun_rent(struct ubifs_fs *u, uint32_t lnum, const struct ubifs_snode *n,
		     struct ubifs_rent *r)
{
	r->old_size = ff_get_le64(n->p + TRUN_OLD);
	r->new_size = ff_get_le64(n->p + TRUN_NEW);
	r->key = ubifs_key_make(ff_get_le32(n->p + TRUN_INUM), UBIFS_TRUN_KEY, 0);
	r->deletion = 1;
	if (r->old_size <= r->new_size || r->old_size > (1ull << 62)) {
		ff_problem_add(&u->problems, "bud LEB %u:%u: bad truncation node (%llu -> %llu)",
			       lnum, n->offs, (unsigned long long)r->old_size,
			       (unsigned long long)r->new_size);
		return 1;
	}
	return 0;
}

/* One scanned bud node as a replay entry; 1 when it is skipped. */
static int node_rent(struct ubifs_fs *u, uint32_t lnum, const struct ubifs_snode *n,
		     struct ubifs_rent *r)
{
	memset(r, 0, sizeof(*r));
	r->sqnum = n->ch.sqnum;
	r->loc = (struct ubifs_loc){ lnum, n->offs, n->ch.len };
	if (n->ch.type <= UBIFS_XENT_NODE)
		ubifs_key_decode(n->p + UBIFS_KEY_OFF, &r->key);
	switch (n->ch.type) {
	case UBIFS_INO_NODE:
		r->deletion = ff_get_le32(n->p + INO_NLINK) == 0;
		r->new_size = ff_get_le64(n->p + INO_SIZE);
		return 0;
	case UBIFS_DATA_NODE:
		r->new_size = ff_get_le32(n->p + DATA_SIZE) +
			      (uint64_t)UBIFS_KEY_VAL(r->key) * UBIFS_BLOCK_SIZE;
		return 0;
	case UBIFS_DENT_NODE:
	case UBIFS_XENT_NODE:
		if (entry_ok(n))
			return entry_rent(n, r);
		ff_problem_add(&u->problems, "bud LEB %u:%u: bad %s entry node", lnum, n->offs,
			       n->ch.type == UBIFS_DENT_NODE ? "directory" : "xattr");
		return 1;
	case UBIFS_TRUN_NODE:
		return trun_rent(u, lnum, n, r);
	}
	ff_problem_add(&u->problems, "bud LEB %u:%u: unexpected node type %u in a bud", lnum,
		       n->offs, n->ch.type);
	return 1;
}

/* Where a cut bud ends as the kernel's ubifs_recover_leb ends it: without
 * an unfinished group (other heads), or without the last min. I/O unit's
 * nodes (the GC head). */
static size_t recovered_count(struct ubifs_fs *u, const struct ubifs_sleb *s, uint32_t jhead)
{
	size_t n = s->n;
	uint32_t unit = s->endpt - s->endpt % u->sb.min_io;

	if (jhead != UBIFS_GC_HEAD)
		while (n && s->v[n - 1].ch.group == UBIFS_IN_GROUP)
			n--;
	else
		while (n && s->v[n - 1].offs >= unit)
			n--;
	return n;
}

static int is_last_bud(const struct ubifs_buds *b, size_t i)
{
	for (size_t j = i + 1; j < b->n; j++)
		if (b->v[j].jhead == b->v[i].jhead)
			return 0;
	return 1;
}

static int replay_bud(struct ubifs_fs *u, const struct ubifs_buds *b, size_t bi,
		      struct rlist *l)
{
	const struct ubifs_bud *bud = &b->v[bi];
	struct ubifs_sleb s;
	size_t n;
	int ret = ubifs_scan(u, bud->lnum, bud->start, &s);

	if (ret < 0)
		goto out;
	n = s.n;
	if (s.end == UBIFS_SCAN_CORRUPT) {
		if (u->js.need_recovery && is_last_bud(b, bi)) {
			n = recovered_count(u, &s, bud->jhead);
			u->js.buds_cut++;
		} else {
			ff_problem_add(&u->problems, "bud LEB %u:%u (head %u): %s", bud->lnum,
				       s.endpt, bud->jhead, s.why);
		}
	}
	for (size_t i = 0; i < n && ret >= 0; i++) {
		struct ubifs_rent r;

		u->js.nodes++;
		if (s.v[i].ch.sqnum > u->js.max_sqnum)
			u->js.max_sqnum = s.v[i].ch.sqnum;
		ret = node_rent(u, bud->lnum, &s.v[i], &r);
		if (ret == 0 && (ret = rl_add(l, &r)) < 0)
			free(r.name);
	}
	ret = ret < 0 ? ret : 0;
out:
	ubifs_sleb_free(&s);
	return ret;
}

static int by_sqnum(const void *pa, const void *pb)
{
	const struct ubifs_rent *a = pa, *b = pb;

	return (a->sqnum > b->sqnum) - (a->sqnum < b->sqnum);
}

int ubifs_replay(struct ubifs_fs *u, struct ff_err *err)
{
	struct ubifs_buds b = { 0 };
	struct rlist l = { 0 };
	int ret;

	u->js.need_recovery = (u->mst.flags & UBIFS_MST_DIRTY) != 0;
	ret = ubifs_log_read(u, &b);
	if (ret == -ENOMEM)
		goto out;
	u->js.buds = (uint32_t)b.n;
	u->bud_lnum = b.n ? malloc(b.n * sizeof(*u->bud_lnum)) : NULL;
	if (b.n && !u->bud_lnum) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < b.n; i++)
		u->bud_lnum[u->n_buds++] = b.v[i].lnum;
	for (size_t i = 0; i < b.n; i++)
		if ((ret = replay_bud(u, &b, i, &l)) < 0)
			goto out;
	if (l.n)
		qsort(l.v, l.n, sizeof(l.v[0]), by_sqnum);
	ret = ubifs_replay_apply(u, l.v, l.n);
out:
	if (ret == -ENOMEM)
		ff_err_set(err, ENOMEM, "UBIFS journal replay: out of memory");
	rl_free(&l);
	free(b.v);
	ff_hmap_free(&b.seen, NULL);
	return ret == -ENOMEM ? -1 : 0;
}
