/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The areas of a new UBIFS and their sizes: mkfs.ubifs' defaults (journal
 * an eighth of the main area, 4 LEBs to 8 MiB; a log big enough for it,
 * plus 2; one orphan LEB; the LPT area four times the tree) and the limits
 * the kernel's superblock check enforces, so an image we write is never
 * one it refuses. */
#include <errno.h>

#include "ubifs/write_priv.h"

static int fls32(uint32_t x)
{
	int n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

static uint32_t log_lebs_needed(const struct uw_geom *g)
{
	uint64_t buds = (g->max_bud_bytes + g->leb_size - 1) / g->leb_size;
	uint64_t sz = UW_ALIGN(UBIFS_REF_NODE_SZ, g->min_io) * buds;

	/* a commit start node and a reference per head (3) plus 2 */
	sz += UW_ALIGN(UBIFS_CS_NODE_SZ + UBIFS_REF_NODE_SZ * 5u, g->min_io);
	return (uint32_t)((sz + g->leb_size - 1) / g->leb_size) + 1;
}

/* The kernel's do_calc_lpt_geom for main_lebs LEBs under the tree; the
 * height follows the full-size main area, as mkfs.ubifs and the kernel
 * (which adds max_leb_cnt - leb_cnt) both compute it. */
void uw_lpt_geom(struct uw_geom *g, uint32_t main_lebs)
{
	uint32_t pnodes = (main_lebs + 3) / 4, maxp = (g->max_main_lebs + 3) / 4, n, nnodes;
	uint64_t bits, sz, waste;
	uint32_t per;

	g->lpt_hght = 1;
	for (n = 4; n < maxp; n <<= 2)
		g->lpt_hght++;
	n = (pnodes + 3) / 4;
	nnodes = n;
	for (uint32_t i = 1; i < g->lpt_hght; i++) {
		n = (n + 3) / 4;
		nnodes += n;
	}
	g->space_bits = (uint32_t)fls32(g->leb_size) - 3;
	g->lpt_lnum_bits = (uint32_t)fls32(g->lpt_lebs);
	g->lpt_offs_bits = (uint32_t)fls32(g->leb_size - 1);
	g->lpt_spc_bits = (uint32_t)fls32(g->leb_size);
	g->pcnt_bits = (uint32_t)fls32((g->max_leb_cnt + 3) / 4 - 1);
	g->lnum_bits = (uint32_t)fls32(g->max_leb_cnt - 1);
	bits = 20 + (g->big_lpt ? g->pcnt_bits : 0) + (g->space_bits * 2 + 1) * 4;
	g->pnode_sz = (uint32_t)((bits + 7) / 8);
	bits = 20 + (g->big_lpt ? g->pcnt_bits : 0) + (g->lpt_lnum_bits + g->lpt_offs_bits) * 4;
	g->nnode_sz = (uint32_t)((bits + 7) / 8);
	g->ltab_sz = (uint32_t)((20 + (uint64_t)g->lpt_lebs * g->lpt_spc_bits * 2 + 7) / 8);
	g->lsave_sz = (uint32_t)((20 + (uint64_t)g->lnum_bits * g->lsave_cnt + 7) / 8);
	g->lpt_sz = (uint64_t)pnodes * g->pnode_sz + (uint64_t)nnodes * g->nnode_sz + g->ltab_sz;
	if (g->big_lpt)
		g->lpt_sz += g->lsave_sz;
	/* a node that does not fit at a LEB's end wastes up to its size */
	per = g->pnode_sz > g->nnode_sz ? g->pnode_sz : g->nnode_sz;
	sz = g->lpt_sz + per;
	waste = per;
	while (sz > g->leb_size) {
		sz += per;
		sz -= g->leb_size;
		waste += per;
	}
	waste += UW_ALIGN(sz, g->min_io) - sz;
	g->lpt_sz += waste;
}

/* mkfs.ubifs' search: the smallest LPT area that holds four times the
 * tree, with the big model when the tree outgrows one LEB. */
static int lpt_default(struct uw_geom *g, uint32_t avail, struct ff_err *err)
{
	g->lpt_lebs = UW_MIN_LPT_LEBS;
	g->big_lpt = 0;
	for (int i = 0; i < 64; i++) {
		if (avail <= g->lpt_lebs)
			break;
		g->max_main_lebs = avail - g->lpt_lebs;
		uw_lpt_geom(g, g->max_main_lebs);
		if (!g->big_lpt && g->lpt_sz > g->leb_size) {
			g->big_lpt = 1;
			uw_lpt_geom(g, g->max_main_lebs);
		}
		uint64_t need = (g->lpt_sz * 4 + g->leb_size - 1) / g->leb_size;
		if (need <= g->lpt_lebs) {
			if (g->ltab_sz > g->leb_size)
				return ff_err_set(err, EINVAL, "LPT's own table too big for a LEB");
			return 0;
		}
		g->lpt_lebs = (uint32_t)need;
	}
	return ff_err_set(err, EINVAL, "-c %u: too few LEBs for the LEB properties tree",
			  g->max_leb_cnt);
}

static int check_sizes(const struct ff_ubifs_write_opts *o, struct ff_err *err)
{
	uint32_t tmp;

	if (!o->min_io || (o->min_io & (o->min_io - 1)))
		return ff_err_set(err, EINVAL, "-m %u: min. I/O unit size should be a power of 2",
				  o->min_io);
	if (o->leb_size < o->min_io)
		return ff_err_set(err, EINVAL, "-e %u: LEB smaller than the min. I/O unit %u",
				  o->leb_size, o->min_io);
	if (o->leb_size < UBIFS_MIN_LEB_SIZE || o->leb_size > UW_MAX_LEB_SIZE)
		return ff_err_set(err, EINVAL, "-e %u: LEB size must be %u to %u", o->leb_size,
				  UBIFS_MIN_LEB_SIZE, UW_MAX_LEB_SIZE);
	if (o->leb_size % o->min_io || o->leb_size % 8)
		return ff_err_set(err, EINVAL, "-e %u: LEB size must be a multiple of -m %u and 8",
				  o->leb_size, o->min_io);
	if (o->max_leb_cnt < UW_MIN_LEB_CNT)
		return ff_err_set(err, EINVAL, "-c %u: too low max. count of LEBs, minimum is %u",
				  o->max_leb_cnt, UW_MIN_LEB_CNT);
	tmp = (o->leb_size - UBIFS_IDX_NODE_SZ) / (UBIFS_BRANCH_SZ + 16u);
	if (o->fanout < 3 || o->fanout > tmp)
		return ff_err_set(err, EINVAL, "-f %u: fanout must be 3 to %u", o->fanout, tmp);
	return 0;
}

/* mkfs.ubifs' journal default: an eighth of the main area, 4 LEBs to 8 MiB. */
static uint64_t default_jrn(const struct ff_ubifs_write_opts *o)
{
	uint32_t lebs = o->max_leb_cnt - 3 - o->orph_lebs - UW_MIN_LPT_LEBS;
	uint64_t b;

	lebs -= o->log_lebs ? o->log_lebs : UW_MIN_LOG_LEBS;
	b = (uint64_t)(lebs / 8) * o->leb_size;
	if (b > 8u << 20)
		b = 8u << 20;
	if (b < 4ull * o->leb_size)
		b = 4ull * o->leb_size;
	return b;
}

/* The kernel's reported-space overhead, inverted (mkfs.ubifs does this to
 * -R): the flash that gives the super-user `size` bytes. */
static uint64_t space_overhead(const struct uw_geom *g, uint64_t size)
{
	uint32_t f = g->fanout > 3 ? g->fanout >> 1 : 2;
	uint64_t idx = UBIFS_IDX_NODE_SZ + (uint64_t)(UBIFS_BRANCH_SZ + UBIFS_SK_LEN) * g->fanout;
	uint64_t factor = UBIFS_DATA_NODE_SZ + UBIFS_BLOCK_SIZE + idx * 3 / (f - 1);

	return size * factor / UBIFS_BLOCK_SIZE;
}

int ff_ubifs_write_check(struct ff_ubifs_write_opts *o, struct ff_err *err)
{
	struct uw_geom g;

	if (o->min_io && o->min_io < 8)
		o->min_io = 8;
	if (!o->fanout)
		o->fanout = 8;
	if (!o->orph_lebs)
		o->orph_lebs = 1;
	if (!o->favor_percent)
		o->favor_percent = 20;
	if (check_sizes(o, err))
		return -1;
	if (!o->jrn_size)
		o->jrn_size = default_jrn(o);
	return uw_geom_init(&g, o, err);
}

static int check_areas(const struct uw_geom *g, struct ff_err *err)
{
	uint32_t need = log_lebs_needed(g);

	if (g->log_lebs < UW_MIN_LOG_LEBS || g->log_lebs < need)
		return ff_err_set(err, EINVAL, "-l %u: too few log LEBs, expected at least %u",
				  g->log_lebs, need > UW_MIN_LOG_LEBS ? need : UW_MIN_LOG_LEBS);
	if (g->log_lebs >= g->max_leb_cnt - UW_MIN_LEB_CNT)
		return ff_err_set(err, EINVAL, "-l %u: too many log LEBs, maximum is %u",
				  g->log_lebs, g->max_leb_cnt - UW_MIN_LEB_CNT - 1);
	if (g->orph_lebs >= g->max_leb_cnt - UW_MIN_LEB_CNT)
		return ff_err_set(err, EINVAL, "-p %u: too many orphan LEBs, maximum is %u",
				  g->orph_lebs, g->max_leb_cnt - UW_MIN_LEB_CNT - 1);
	if (g->max_bud_bytes < (uint64_t)g->leb_size * UW_MIN_BUD_LEBS)
		return ff_err_set(err, EINVAL, "-j %llu: journal too small, minimum is %llu",
				  (unsigned long long)g->max_bud_bytes,
				  (unsigned long long)g->leb_size * UW_MIN_BUD_LEBS);
	if (g->max_bud_bytes > (uint64_t)g->leb_size * g->max_main_lebs)
		return ff_err_set(err, EINVAL, "-j %llu: journal larger than the main area (%llu)",
				  (unsigned long long)g->max_bud_bytes,
				  (unsigned long long)g->leb_size * g->max_main_lebs);
	if (g->rp_size >= (uint64_t)g->leb_size * g->max_leb_cnt / 2)
		return ff_err_set(err, EINVAL, "-R: too much reserved space (%llu bytes)",
				  (unsigned long long)g->rp_size);
	return 0;
}

int uw_geom_init(struct uw_geom *g, const struct ff_ubifs_write_opts *o, struct ff_err *err)
{
	*g = (struct uw_geom){ 0 };
	g->min_io = o->min_io;
	g->leb_size = o->leb_size;
	g->max_leb_cnt = o->max_leb_cnt;
	g->fanout = o->fanout;
	g->orph_lebs = o->orph_lebs;
	g->lsave_cnt = UW_LSAVE_CNT;
	g->max_bud_bytes = o->jrn_size;
	g->log_lebs = o->log_lebs ? o->log_lebs : log_lebs_needed(g) + 2;
	g->rp_size = space_overhead(g, o->reserved);
	if (g->log_lebs + g->orph_lebs + 3 >= g->max_leb_cnt)
		return ff_err_set(err, EINVAL, "-c %u: too few LEBs for %u log and %u orphan LEBs",
				  g->max_leb_cnt, g->log_lebs, g->orph_lebs);
	if (lpt_default(g, g->max_leb_cnt - 3 - g->log_lebs - g->orph_lebs, err))
		return -1;
	if (check_areas(g, err))
		return -1;
	g->lpt_first = UBIFS_LOG_LNUM + g->log_lebs;
	g->lpt_last = g->lpt_first + g->lpt_lebs - 1;
	g->main_first = g->lpt_last + 1 + g->orph_lebs;
	g->dead_wm = UW_ALIGN(UW_MIN_WRITE_SZ, g->min_io);
	g->dark_wm = UW_ALIGN(UW_MAX_NODE_SZ, g->min_io);
	return 0;
}
