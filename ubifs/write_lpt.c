/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The LEB properties tree (LPT), which the kernel reads at mount: leaves
 * (pnodes) holding free space, dirty space and the index flag of 4 main
 * LEBs each, internal nodes (nnodes) of 4 branches up to one root, in the
 * big model a save table (lsave), and the LPT area's own table of free and
 * dirty space (ltab).  Nodes are bit fields packed low bit first after a
 * 16-bit CRC; they are written pnodes first, then each nnode level, lsave,
 * ltab, end to end, a node that does not fit moving to the next LEB (the
 * layout of mkfs.ubifs' create_lpt).  The tree has lpt_hght levels even
 * when the image fills less than the volume, as the kernel expects when
 * it grows the file system at mount. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/write_priv.h"

enum { LPT_PNODE, LPT_NNODE, LPT_LTAB, LPT_LSAVE };

/* The kernel's crc16 (lib/crc16.c: polynomial 0x8005, bits reflected).
 * No Debian library offers this CRC in a public header (ISA-L's crc16 is
 * T10-DIF; libext2fs keeps its crc16 private), so it is computed here,
 * bit by bit: LPT nodes are few and small. */
uint16_t uw_crc16(uint16_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int i = 0; i < 8; i++)
			crc = (crc & 1) ? (uint16_t)((crc >> 1) ^ 0xA001u) : (uint16_t)(crc >> 1);
	}
	return crc;
}

struct bits {
	uint8_t *p;
	uint32_t pos; /* bit position from p */
};

static void put_bits(struct bits *b, uint32_t val, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++, b->pos++)
		if (val >> i & 1)
			b->p[b->pos >> 3] |= (uint8_t)(1u << (b->pos & 7));
}

static void seal(uint8_t *node, uint32_t sz)
{
	uint16_t crc = uw_crc16(0xffff, node + 2, sz - 2);

	node[0] = (uint8_t)crc;
	node[1] = (uint8_t)(crc >> 8);
}

/* The writer's position in the LPT area. */
struct lpt_out {
	const struct uw_geom *g;
	uint8_t *area;             /* lpt_lebs LEBs, 0xFF */
	uint32_t lnum, len;        /* lnum relative to lpt_first */
	struct { uint32_t free, dirty; } *ltab;
};

/* Room for sz bytes: a LEB's tail too short is left dirty. */
static uint8_t *reserve(struct lpt_out *o, uint32_t sz, uint32_t *lnum, uint32_t *offs,
			struct ff_err *err)
{
	uint8_t *p;

	if (o->len + sz > o->g->leb_size) {
		uint32_t alen = UW_ALIGN(o->len, o->g->min_io);

		o->ltab[o->lnum].free = o->g->leb_size - alen;
		o->ltab[o->lnum].dirty = alen - o->len;
		o->lnum++;
		o->len = 0;
	}
	if (o->lnum >= o->g->lpt_lebs) {
		ff_err_set(err, ENOSPC, "LEB properties tree does not fit in %u LEBs",
			   o->g->lpt_lebs);
		return NULL;
	}
	*lnum = o->lnum + o->g->lpt_first;
	*offs = o->len;
	p = o->area + (size_t)o->lnum * o->g->leb_size + o->len;
	memset(p, 0, sz);
	o->len += sz;
	return p;
}

static void pack_pnode(const struct uw_geom *g, uint8_t *p, uint32_t num,
		       const struct uw_lprops *lp, uint32_t main_lebs)
{
	struct bits b = { p + 2, 0 };

	put_bits(&b, LPT_PNODE, 4);
	if (g->big_lpt)
		put_bits(&b, num, g->pcnt_bits);
	for (uint32_t i = 0; i < 4; i++) {
		uint32_t k = num * 4 + i;
		struct uw_lprops e = k < main_lebs ? lp[k] : (struct uw_lprops){ g->leb_size, 0, 0 };

		put_bits(&b, e.free >> 3, g->space_bits);
		put_bits(&b, e.dirty >> 3, g->space_bits);
		put_bits(&b, (e.flags & UW_LPROPS_INDEX) ? 1 : 0, 1);
	}
	seal(p, g->pnode_sz);
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

struct pos {
	uint32_t lnum, offs;
};

static void pack_nnode(const struct uw_geom *g, uint8_t *p, uint32_t num, const struct pos *br,
		       uint32_t nbr)
{
	struct bits b = { p + 2, 0 };

	put_bits(&b, LPT_NNODE, 4);
	if (g->big_lpt)
		put_bits(&b, num, g->pcnt_bits);
	for (uint32_t i = 0; i < 4; i++) {
		/* an absent branch is LEB "lpt_last + 1" */
		uint32_t lnum = i < nbr ? br[i].lnum : g->lpt_last + 1;

		put_bits(&b, lnum - g->lpt_first, g->lpt_lnum_bits);
		put_bits(&b, i < nbr ? br[i].offs : 0, g->lpt_offs_bits);
	}
	seal(p, g->nnode_sz);
}

static int write_pnodes(struct lpt_out *o, const struct uw_lprops *lp, uint32_t main_lebs,
			struct pos *below, uint32_t *n, struct ff_err *err)
{
	*n = (main_lebs + 3) / 4;
	for (uint32_t i = 0; i < *n; i++) {
		uint8_t *p = reserve(o, o->g->pnode_sz, &below[i].lnum, &below[i].offs, err);

		if (!p)
			return -1;
		pack_pnode(o->g, p, i, lp, main_lebs);
	}
	return 0;
}

/* Each level of nnodes over the n nodes below, to the root (row 0). */
static int write_nnodes(struct lpt_out *o, struct pos *below, uint32_t n, struct uw_lpt_pos *pos,
			struct ff_err *err)
{
	for (uint32_t row = o->g->lpt_hght; row-- > 0;) {
		uint32_t cnt = (n + 3) / 4 ? (n + 3) / 4 : 1;

		for (uint32_t i = 0; i < cnt; i++) {
			struct pos at;
			uint32_t nbr = n > i * 4 ? (n - i * 4 < 4 ? n - i * 4 : 4) : 0;
			uint8_t *p = reserve(o, o->g->nnode_sz, &at.lnum, &at.offs, err);

			if (!p)
				return -1;
			pack_nnode(o->g, p, nnode_num(row, i), below + i * 4, nbr);
			below[i] = at;
		}
		n = cnt;
	}
	pos->lpt_lnum = below[0].lnum;
	pos->lpt_offs = below[0].offs;
	return 0;
}

static int write_lsave(struct lpt_out *o, uint32_t main_lebs, struct uw_lpt_pos *pos,
		       struct ff_err *err)
{
	const struct uw_geom *g = o->g;
	uint8_t *p = reserve(o, g->lsave_sz, &pos->lsave_lnum, &pos->lsave_offs, err);
	struct bits b;

	if (!p)
		return -1;
	b = (struct bits){ p + 2, 0 };
	put_bits(&b, LPT_LSAVE, 4);
	for (uint32_t i = 0; i < g->lsave_cnt; i++)
		put_bits(&b, g->main_first + (i < main_lebs ? i : 0), g->lnum_bits);
	seal(p, g->lsave_sz);
	return 0;
}

/* The ltab describes the LEB it is written in, so it is filled last. */
static int write_ltab(struct lpt_out *o, struct uw_lpt_pos *pos, struct ff_err *err)
{
	const struct uw_geom *g = o->g;
	uint8_t *p = reserve(o, g->ltab_sz, &pos->ltab_lnum, &pos->ltab_offs, err);
	uint32_t alen = UW_ALIGN(o->len, g->min_io);
	struct bits b;

	if (!p)
		return -1;
	o->ltab[o->lnum].free = g->leb_size - alen;
	o->ltab[o->lnum].dirty = alen - o->len;
	b = (struct bits){ p + 2, 0 };
	put_bits(&b, LPT_LTAB, 4);
	for (uint32_t i = 0; i < g->lpt_lebs; i++) {
		put_bits(&b, o->ltab[i].free, g->lpt_spc_bits);
		put_bits(&b, o->ltab[i].dirty, g->lpt_spc_bits);
	}
	seal(p, g->ltab_sz);
	pos->nhead_lnum = o->lnum + g->lpt_first;
	pos->nhead_offs = alen;
	return 0;
}

int uw_lpt_build(const struct uw_geom *g, const struct uw_lprops *lp, uint32_t main_lebs,
		 uint8_t *area, struct uw_lpt_pos *pos, struct ff_err *err)
{
	struct lpt_out o = { g, area, 0, 0, calloc(g->lpt_lebs, sizeof(*o.ltab)) };
	struct pos *below = calloc((main_lebs + 3) / 4 + 4, sizeof(*below));
	uint32_t n;
	int r = -1;

	memset(pos, 0, sizeof(*pos));
	if (!o.ltab || !below) {
		ff_err_set(err, ENOMEM, "out of memory for the LEB properties tree");
		goto out;
	}
	for (uint32_t i = 0; i < g->lpt_lebs; i++)
		o.ltab[i].free = g->leb_size;
	memset(area, 0xff, (size_t)g->lpt_lebs * g->leb_size);
	if (write_pnodes(&o, lp, main_lebs, below, &n, err) ||
	    write_nnodes(&o, below, n, pos, err) ||
	    (g->big_lpt && write_lsave(&o, main_lebs, pos, err)) || write_ltab(&o, pos, err))
		goto out;
	r = 0;
out:
	free(o.ltab);
	free(below);
	return r;
}
