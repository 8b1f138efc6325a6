/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `check`, the space accounting: the LEB properties tree (LPT) the last
 * commit wrote, walked from the master node's root nnode down to every
 * pnode (each node's CRC, type and number, branches inside the LPT area),
 * and each main LEB's free and dirty space there against the LEB itself
 * (written up to where its nodes end, padded to the min. I/O unit) and
 * against what the committed index's nodes take in it; the index flag
 * against the kind of nodes the index has there; then the master node's
 * totals against the sums of the properties, by the kernel's rules
 * (lprops.c, as the builder computes them: uw_lprops_total).  LEBs the
 * journal wrote after the commit (buds) are left out: the kernel brings
 * their properties up to date at mount, not on flash.
 *
 * The LPT's geometry and CRC are the builder's (write_geom.c,
 * write_lpt.c): the same computation as the kernel's, in one place. */
#include <stdlib.h>
#include <string.h>

#include "common/problems.h"
#include "ubifs/ubifs.h"
#include "ubifs/write_priv.h"

enum { LPT_PNODE, LPT_NNODE };

struct lchk {
	struct ubifs_fs *u;
	struct uw_geom g;
	uint32_t lpt_first, lpt_last, main_lebs, pnodes;
	struct uw_lprops *lp;      /* per main LEB, from the pnodes */
	uint8_t *seen;             /* 1 where a pnode gave the LEB's properties */
	uint32_t *at_lnum, *at_offs; /* that pnode's place, for messages */
	uint64_t visits;
	struct ff_problem_sink out;
};

/* LPT nodes are bit fields, low bit first, after a 16-bit CRC. */
static uint32_t get_bits(const uint8_t *p, uint32_t *pos, uint32_t n)
{
	uint32_t v = 0;

	for (uint32_t i = 0; i < n; i++, (*pos)++)
		if (p[*pos >> 3] >> (*pos & 7) & 1)
			v |= 1u << i;
	return v;
}

/* Reads an LPT node of sz bytes and checks its place, CRC and type; the
 * bit position after the type (and number, in the big model) in *pos. */
static int read_node(struct lchk *c, uint32_t lnum, uint32_t offs, uint32_t sz, uint32_t type,
		     uint8_t *buf, uint32_t *pos, uint32_t *num)
{
	const char *what = type == LPT_PNODE ? "pnode" : "nnode";
	uint16_t crc;
	uint32_t t;

	if (lnum < c->lpt_first || lnum > c->lpt_last || offs > c->g.leb_size - sz) {
		ff_problemf(&c->out, "LPT: %s at LEB %u:%u is outside the LPT area (LEBs %u-%u)",
			    what, lnum, offs, c->lpt_first, c->lpt_last);
		return -1;
	}
	if (ubifs_leb_read(c->u, lnum, offs, buf, sz) < 0) {
		ff_problemf(&c->out, "LPT: %s at LEB %u:%u cannot be read", what, lnum, offs);
		return -1;
	}
	crc = uw_crc16(0xffff, buf + 2, sz - 2);
	if ((buf[0] | buf[1] << 8) != crc) {
		ff_problemf(&c->out, "LPT: %s at LEB %u:%u: CRC %04x, computed %04x", what, lnum,
			    offs, buf[0] | buf[1] << 8, crc);
		return -1;
	}
	*pos = 0;
	t = get_bits(buf + 2, pos, 4);
	*num = c->g.big_lpt ? get_bits(buf + 2, pos, c->g.pcnt_bits) : 0;
	if (t != type) {
		ff_problemf(&c->out, "LPT: node at LEB %u:%u is of type %u where a %s belongs",
			    lnum, offs, t, what);
		return -1;
	}
	return 0;
}

static void pnode(struct lchk *c, uint32_t lnum, uint32_t offs, uint32_t col)
{
	uint8_t buf[64];
	uint32_t pos, num;

	if (read_node(c, lnum, offs, c->g.pnode_sz, LPT_PNODE, buf, &pos, &num))
		return;
	if (c->g.big_lpt && num != col)
		ff_problemf(&c->out, "LPT: pnode at LEB %u:%u is number %u, its place says %u",
			    lnum, offs, num, col);
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t k = col * 4 + i;
		struct uw_lprops e;

		e.free = get_bits(buf + 2, &pos, c->g.space_bits) << 3;
		e.dirty = get_bits(buf + 2, &pos, c->g.space_bits) << 3;
		e.flags = get_bits(buf + 2, &pos, 1) ? UW_LPROPS_INDEX : 0;
		if (k >= c->main_lebs)
			continue;
		c->lp[k] = e;
		c->seen[k] = 1;
		c->at_lnum[k] = lnum;
		c->at_offs[k] = offs;
	}
}

/* An absent branch: the kernel makes the properties below it up as empty
 * LEBs (read_pnode, read_nnode); so does a file system it grew at mount
 * until a commit writes them.  Pnodes [first, first + n). */
static void empty_below(struct lchk *c, uint32_t lnum, uint32_t offs, uint64_t first,
			uint64_t n)
{
	for (uint64_t k = first * 4; k < (first + n) * 4 && k < c->main_lebs; k++) {
		c->lp[k] = (struct uw_lprops){ c->g.leb_size, 0, 0 };
		c->seen[k] = 1;
		c->at_lnum[k] = lnum;
		c->at_offs[k] = offs;
	}
}

/* The kernel's nnode number: the column's base-4 digits under a leading 1. */
static uint32_t nnode_num(uint32_t row, uint32_t col)
{
	uint32_t num = 1;

	while (row--) {
		num = (num << 2) | (col & 3);
		col >>= 2;
	}
	return num;
}

/* An nnode at `level` above the pnodes (the root: lpt_hght), covering
 * the pnodes from col * 4^level. */
static void nnode(struct lchk *c, uint32_t lnum, uint32_t offs, uint32_t level, uint32_t col)
{
	uint8_t buf[64];
	uint32_t pos, num;

	if (++c->visits > c->pnodes * 2u + 64u)
		return; /* bounded whatever the branches say */
	if (read_node(c, lnum, offs, c->g.nnode_sz, LPT_NNODE, buf, &pos, &num))
		return;
	if (c->g.big_lpt && num != nnode_num(c->g.lpt_hght - level, col))
		ff_problemf(&c->out, "LPT: nnode at LEB %u:%u is number %u, its place says %u",
			    lnum, offs, num, nnode_num(c->g.lpt_hght - level, col));
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t bl = get_bits(buf + 2, &pos, c->g.lpt_lnum_bits) + c->lpt_first;
		uint32_t bo = get_bits(buf + 2, &pos, c->g.lpt_offs_bits);
		uint64_t first = ((uint64_t)col * 4 + i) << (2 * (level - 1));

		if (first >= c->pnodes)
			continue; /* beyond the main area */
		if (bl == c->lpt_last + 1)
			empty_below(c, lnum, offs, first, (uint64_t)1 << (2 * (level - 1)));
		else if (level == 1)
			pnode(c, bl, bo, col * 4 + i);
		else
			nnode(c, bl, bo, level - 1, col * 4 + i);
	}
}

static int is_bud(const struct ubifs_fs *u, uint32_t lnum)
{
	for (size_t i = 0; i < u->n_buds; i++)
		if (u->bud_lnum[i] == lnum)
			return 1;
	return 0;
}

/* Where the LEB's nodes end: the scan's stop, padding included. */
static int written_end(struct lchk *c, uint32_t lnum, uint32_t *end)
{
	struct ubifs_sleb s = { 0 };

	if (ubifs_scan(c->u, lnum, 0, &s) < 0) {
		ubifs_sleb_free(&s);
		ff_problemf(&c->out, "LEB %u cannot be read", lnum);
		return -1;
	}
	*end = s.end == UBIFS_SCAN_FULL ? c->g.leb_size : s.endpt;
	if (s.end == UBIFS_SCAN_CORRUPT)
		ff_problemf(&c->out, "LEB %u:%u: %s (its LEB properties are not checked)", lnum,
			    s.endpt, s.why);
	ubifs_sleb_free(&s);
	return s.end == UBIFS_SCAN_CORRUPT ? -1 : 0;
}

static void check_leb(struct lchk *c, uint32_t k, const uint64_t *live, const uint8_t *idx)
{
	uint32_t lnum = c->u->main_first + k, end, want_free;
	const struct uw_lprops *e = &c->lp[k];
	uint64_t used = live[lnum], want_dirty;

	if (written_end(c, lnum, &end))
		return;
	want_free = c->g.leb_size - UW_ALIGN(end, c->g.min_io);
	if (e->free != want_free)
		ff_problemf(&c->out,
			    "LEB %u (properties at LPT LEB %u:%u): %u bytes free, but its nodes "
			    "end at offset %u (%u free)", lnum, c->at_lnum[k], c->at_offs[k],
			    e->free, end, want_free);
	want_dirty = c->g.leb_size - want_free >= used ? c->g.leb_size - want_free - used : 0;
	if (e->free == want_free && e->dirty != want_dirty)
		ff_problemf(&c->out,
			    "LEB %u (properties at LPT LEB %u:%u): %u bytes dirty, but the index "
			    "uses %llu of its %u written bytes (%llu dirty)", lnum, c->at_lnum[k],
			    c->at_offs[k], e->dirty, (unsigned long long)used,
			    c->g.leb_size - want_free, (unsigned long long)want_dirty);
	if ((idx[lnum] & 1) && !(e->flags & UW_LPROPS_INDEX))
		ff_problemf(&c->out,
			    "LEB %u (properties at LPT LEB %u:%u): holds index nodes but is not "
			    "marked an index LEB", lnum, c->at_lnum[k], c->at_offs[k]);
	if ((idx[lnum] & 2) && (e->flags & UW_LPROPS_INDEX))
		ff_problemf(&c->out,
			    "LEB %u (properties at LPT LEB %u:%u): marked an index LEB but holds "
			    "leaf nodes", lnum, c->at_lnum[k], c->at_offs[k]);
}

static void check_total(struct lchk *c, const char *what, uint64_t mst, uint64_t sum)
{
	if (mst != sum)
		ff_problemf(&c->out,
			    "master node at LEB %u:%u: %s %llu, the LEB properties sum to %llu",
			    c->u->mst.at_lnum, c->u->mst.at_offs, what, (unsigned long long)mst,
			    (unsigned long long)sum);
}

static void check_totals(struct lchk *c, uint64_t index_size)
{
	const struct ubifs_master *m = &c->u->mst;
	struct uw_lst t = { 0 };

	for (uint32_t k = 0; k < c->main_lebs; k++)
		uw_lprops_total(&c->g, &c->lp[k], &t);
	check_total(c, "total_free", m->total_free, t.total_free);
	check_total(c, "total_dirty", m->total_dirty, t.total_dirty);
	check_total(c, "total_used", m->total_used, t.total_used);
	check_total(c, "total_dead", m->total_dead, t.total_dead);
	check_total(c, "total_dark", m->total_dark, t.total_dark);
	check_total(c, "empty_lebs", m->empty_lebs, t.empty_lebs);
	check_total(c, "idx_lebs", m->idx_lebs, t.idx_lebs);
	if (m->index_size != index_size)
		ff_problemf(&c->out,
			    "master node at LEB %u:%u: index_size %llu, the index's nodes take "
			    "%llu", m->at_lnum, m->at_offs, (unsigned long long)m->index_size,
			    (unsigned long long)index_size);
}

static int geom(struct lchk *c)
{
	const struct ubifs_super *sb = &c->u->sb;

	c->g = (struct uw_geom){ .min_io = sb->min_io, .leb_size = sb->leb_size,
				 .max_leb_cnt = sb->max_leb_cnt, .lpt_lebs = sb->lpt_lebs,
				 .lsave_cnt = sb->lsave_cnt,
				 .big_lpt = (sb->flags & UBIFS_FLG_BIGLPT) != 0 };
	c->lpt_first = UBIFS_LOG_LNUM + sb->log_lebs;
	c->lpt_last = c->lpt_first + sb->lpt_lebs - 1;
	c->main_lebs = sb->leb_cnt - c->u->main_first;
	c->pnodes = (c->main_lebs + 3) / 4;
	c->g.max_main_lebs = sb->max_leb_cnt - c->u->main_first;
	uw_lpt_geom(&c->g, c->main_lebs);
	c->g.dead_wm = UW_ALIGN(UW_MIN_WRITE_SZ, sb->min_io);
	c->g.dark_wm = UW_ALIGN(UW_MAX_NODE_SZ, sb->min_io);
	if (c->g.pnode_sz > 64 || c->g.nnode_sz > 64 || c->g.lpt_hght > 16) {
		ff_problemf(&c->out,
			    "LPT: geometry out of range (pnode %u, nnode %u bytes, height %u)",
			    c->g.pnode_sz, c->g.nnode_sz, c->g.lpt_hght);
		return -1;
	}
	return 0;
}

long ubifs_check_lpt(struct ubifs_fs *u, const uint64_t *live, const uint8_t *idx,
		     uint64_t index_size, ff_problem_fn fn, void *ctx)
{
	struct lchk c = { .u = u, .out = { fn, ctx, 0 } };

	if (geom(&c))
		return c.out.count;
	c.lp = calloc(c.main_lebs, sizeof(*c.lp));
	c.seen = calloc(c.main_lebs, 1);
	c.at_lnum = calloc(c.main_lebs, sizeof(*c.at_lnum));
	c.at_offs = calloc(c.main_lebs, sizeof(*c.at_offs));
	if (!c.lp || !c.seen || !c.at_lnum || !c.at_offs) {
		ff_problemf(&c.out, "out of memory: the LEB properties are not checked");
	} else {
		nnode(&c, u->mst.lpt_lnum, u->mst.lpt_offs, c.g.lpt_hght, 0);
		for (uint32_t k = 0; k < c.main_lebs; k++) {
			if (!c.seen[k])
				ff_problemf(&c.out, "LPT: no properties for LEB %u",
					    u->main_first + k);
			else if (!is_bud(u, u->main_first + k))
				check_leb(&c, k, live, idx);
		}
		check_totals(&c, index_size);
	}
	free(c.lp);
	free(c.seen);
	free(c.at_lnum);
	free(c.at_offs);
	return c.out.count;
}
