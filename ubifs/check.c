/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `check`: the problems found while opening (master, log, buds), then the
 * whole on-flash index walked znode by znode (each node's CRC and length,
 * keys in order, no branch leading nowhere, each leaf of the type its key
 * says, data that decompresses), then the tree as the journal left it:
 * every entry leads to an inode of its type, and every inode's link count
 * matches the entries that name it; and the space accounting (the LEB
 * properties tree and the master's totals, check_lpt.c) against what the
 * index's nodes take. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/ubifs.h"

struct chk {
	struct ubifs_fs *u;
	struct ff_problem_sink out;
	uint64_t visits, max_visits;
	struct ubifs_key last;
	int have_last;
	uint64_t *live, index_size; /* what the index's nodes take, per LEB */
	uint8_t *idx;               /* 1: index nodes in the LEB, 2: leaves */
};

/* The space a node takes in its LEB, for the LEB properties check. */
static void count_live(struct chk *c, const struct ubifs_loc *loc, uint8_t kind)
{
	uint64_t len = ((uint64_t)loc->len + 7) & ~7ull;

	if (!c->live || loc->lnum >= c->u->sb.leb_cnt)
		return;
	c->live[loc->lnum] += len;
	c->idx[loc->lnum] |= kind;
	if (kind == 1)
		c->index_size += len;
}

/* Reads and checks one node; 0, or -1 with a problem named. */
static int node_at(struct chk *c, const struct ubifs_loc *loc, uint8_t *buf, size_t cap,
		   struct ubifs_ch *ch, const char *what)
{
	char why[160];

	if (loc->len > cap || ubifs_leb_read(c->u, loc->lnum, loc->offs, buf, loc->len) < 0) {
		ff_problemf(&c->out, "%s at LEB %u:%u: %u bytes cannot be read", what, loc->lnum,
			    loc->offs, loc->len);
		return -1;
	}
	if (ubifs_node_check(c->u, buf, loc->len, loc->offs, ch, why, sizeof(why))) {
		ff_problemf(&c->out, "%s at LEB %u:%u: %s", what, loc->lnum, loc->offs, why);
		return -1;
	}
	if (ch->len != loc->len) {
		ff_problemf(&c->out, "%s at LEB %u:%u: node of %u bytes, the index says %u", what,
			    loc->lnum, loc->offs, ch->len, loc->len);
		return -1;
	}
	return 0;
}

static void check_data(struct chk *c, const struct ubifs_zbr *b, const uint8_t *p)
{
	uint8_t out[UBIFS_BLOCK_SIZE];
	uint32_t size = ff_get_le32(p + DATA_SIZE);
	unsigned compr = ff_get_le16(p + DATA_COMPR);
	ssize_t n = ubifs_decompress(compr, p + UBIFS_DATA_NODE_SZ,
				     b->loc.len - UBIFS_DATA_NODE_SZ, out, sizeof(out));

	char why[FF_ERR_MSG_MAX];

	if (ubifs_lzo_missing(compr, why, sizeof(why)))
		ff_problemf(&c->out, "data node at LEB %u:%u (inode %u, block %u): %s", b->loc.lnum,
			    b->loc.offs, b->key.inum, UBIFS_KEY_VAL(b->key), why);
	else if (size > UBIFS_BLOCK_SIZE || n != (ssize_t)size)
		ff_problemf(&c->out,
			    "data node at LEB %u:%u (inode %u, block %u): %s data does not "
			    "decompress to its %u bytes", b->loc.lnum, b->loc.offs, b->key.inum,
			    UBIFS_KEY_VAL(b->key), ubifs_compr_name(compr), size);
}

static void check_leaf(struct chk *c, const struct ubifs_zbr *b)
{
	uint8_t buf[UBIFS_INO_NODE_SZ + UBIFS_MAX_INO_DATA];
	struct ubifs_ch ch;
	struct ubifs_key nk;
	struct ubifs_ino ino;
	struct ubifs_dent d;

	if (c->have_last && (ubifs_key_cmp(&c->last, &b->key) > 0 ||
			     (!ubifs_key_hashed(&b->key) && !ubifs_key_cmp(&c->last, &b->key))))
		ff_problemf(&c->out, "index: key %u:%08x at LEB %u:%u out of order after %u:%08x",
			    b->key.inum, b->key.lo, b->loc.lnum, b->loc.offs, c->last.inum,
			    c->last.lo);
	c->last = b->key;
	c->have_last = 1;
	count_live(c, &b->loc, 2);
	if (node_at(c, &b->loc, buf, sizeof(buf), &ch, "leaf node") < 0)
		return;
	ubifs_key_decode(buf + UBIFS_KEY_OFF, &nk);
	if (ch.type != UBIFS_KEY_TYPE(b->key) || ubifs_key_cmp(&nk, &b->key))
		ff_problemf(&c->out,
			    "leaf node at LEB %u:%u: type %u, key %u:%08x where the index says "
			    "key %u:%08x", b->loc.lnum, b->loc.offs, ch.type, nk.inum, nk.lo,
			    b->key.inum, b->key.lo);
	else if (ch.type == UBIFS_DATA_NODE)
		check_data(c, b, buf);
	else if (ch.type == UBIFS_INO_NODE ? ubifs_ino_decode(buf, ch.len, &ino) < 0
					   : ubifs_dent_decode(buf, ch.len, &d) < 0)
		ff_problemf(&c->out, "%s node at LEB %u:%u (key %u:%08x) is malformed",
			    ch.type == UBIFS_INO_NODE ? "inode" : "entry", b->loc.lnum, b->loc.offs,
			    b->key.inum, b->key.lo);
}

static void check_znode(struct chk *c, const struct ubifs_loc *loc, uint32_t level,
			unsigned depth)
{
	struct ubifs_znode *z;

	if (depth >= UBIFS_MAX_LEVELS || ++c->visits > c->max_visits) {
		ff_problemf(&c->out,
			    "index: more than %u levels or %llu index nodes below LEB %u:%u "
			    "(a loop?)", UBIFS_MAX_LEVELS, (unsigned long long)c->max_visits,
			    loc->lnum, loc->offs);
		return;
	}
	if (ubifs_znode_get(c->u, loc, level, &z) < 0) {
		uint8_t *buf = malloc(c->u->max_znode_len);
		struct ubifs_ch ch;

		/* name the problem: the node itself, else its branches */
		if (buf && node_at(c, loc, buf, c->u->max_znode_len, &ch, "index node") == 0)
			ff_problemf(&c->out,
				    "index node at LEB %u:%u: bad branches, level or count",
				    loc->lnum, loc->offs);
		free(buf);
		return;
	}
	count_live(c, loc, 1);
	for (uint32_t i = 0; i < z->cnt; i++) {
		if (z->level == 0)
			check_leaf(c, &z->br[i]);
		else
			check_znode(c, &z->br[i].loc, z->level - 1, depth + 1);
	}
	ubifs_znode_put(z);
}

long ubifs_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	return ff_problem_replay(&((const struct ubifs_fs *)fs)->problems, fn, ctx);
}

long ubifs_check_tree(struct ubifs_fs *u, ff_problem_fn fn, void *ctx);

long ubifs_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct ubifs_fs *u = (struct ubifs_fs *)fs;
	struct chk c = { u, { fn, ctx, 0 }, 0, 0, { 0, 0 }, 0, NULL, 0, NULL };
	long tree, lpt = 0;

	c.out.count = ubifs_open_problems(fs, fn, ctx);
	c.max_visits = u->src->size / UBIFS_IDX_NODE_SZ + 64;
	c.live = calloc(u->sb.leb_cnt, sizeof(*c.live));
	c.idx = calloc(u->sb.leb_cnt, 1);
	check_znode(&c, &u->mst.root, UINT32_MAX, 0);
	if (c.live && c.idx)
		lpt = ubifs_check_lpt(u, c.live, c.idx, c.index_size, fn, ctx);
	else
		ff_problemf(&c.out, "out of memory: the LEB properties are not checked");
	free(c.live);
	free(c.idx);
	tree = ubifs_check_tree(u, fn, ctx);
	return tree < 0 ? tree : c.out.count + lpt + tree;
}
