/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The main area, filled LEB by LEB as mkfs.ubifs fills it: each node at
 * the next 8-byte boundary of the head LEB; a node that does not fit
 * closes the LEB, whose end is padded to the min. I/O unit (a padding
 * node, or 0xCE bytes where one does not fit) and left erased after that.
 * A closed LEB's properties (free = what follows the padding, dirty = the
 * padding) go to the LEB properties tree; the kernel's own accounting
 * (lprops.c) gives the totals of the master node. */
#include <errno.h>
#include <lzma.h>
#include <string.h>
#include <zlib.h>

#include "common/crc.h"
#include "common/endian.h"
#include "ubifs/ubifs.h"
#include "ubifs/write_priv.h"

void uw_pad(uint8_t *p, uint32_t len)
{
	if (len >= UBIFS_PAD_NODE_SZ) {
		memset(p, 0, len);
		ff_put_le32(p, UBIFS_MAGIC);
		ff_put_le64(p + CH_SQNUM, 0);
		ff_put_le32(p + CH_LEN, UBIFS_PAD_NODE_SZ);
		p[CH_TYPE] = UBIFS_PAD_NODE;
		ff_put_le32(p + PAD_LEN, len - UBIFS_PAD_NODE_SZ);
		ff_put_le32(p + CH_CRC, ubifs_crc(p + 8, UBIFS_PAD_NODE_SZ - 8));
	} else if (len) {
		memset(p, UBIFS_PAD_BYTE, len);
	}
}

/* The kernel's ubifs_calc_dark: space that a worst-case node may not fit. */
static uint32_t calc_dark(const struct uw_geom *g, uint32_t spc)
{
	if (spc < g->dark_wm)
		return spc;
	if (spc - g->dark_wm < UW_MIN_WRITE_SZ)
		return spc - UW_MIN_WRITE_SZ;
	return g->dark_wm;
}

void uw_lprops_total(const struct uw_geom *g, const struct uw_lprops *lp, struct uw_lst *lst)
{
	uint32_t spc = lp->free + lp->dirty;

	lst->total_free += lp->free;
	lst->total_dirty += lp->dirty;
	if (lp->flags & UW_LPROPS_INDEX) {
		lst->idx_lebs++;
	} else {
		if (spc < g->dead_wm)
			lst->total_dead += spc;
		else
			lst->total_dark += calc_dark(g, spc);
		lst->total_used += g->leb_size - spc;
	}
	if (lp->free == g->leb_size)
		lst->empty_lebs++;
}

/* The UUID made from the content: 128 bits of liblzma's crc64, zlib's
 * crc32 and crc32c (checksums, not codecs) over each node's common header
 * (its CRC covers the rest of the node) and place, not over every byte of
 * the main area: the node CRCs are computed anyway, and the three passes
 * over 100 MB of LEBs were a tenth of a zstd build's time. */
static void hash_node(uint64_t h[2], const uint8_t *node, uint32_t lnum, uint32_t offs)
{
	uint8_t p[UBIFS_CH_SZ + 8];
	uint32_t hi = (uint32_t)(h[1] >> 32), lo = (uint32_t)h[1];

	memcpy(p, node, UBIFS_CH_SZ);
	ff_put_le32(p + UBIFS_CH_SZ, lnum);
	ff_put_le32(p + UBIFS_CH_SZ + 4, offs);
	h[0] = lzma_crc64(p, sizeof(p), h[0]);
	hi = (uint32_t)crc32(hi, p, sizeof(p));
	lo = ff_crc32c(lo, p, sizeof(p));
	h[1] = (uint64_t)hi << 32 | lo;
}

static int write_leb(struct uw *w, uint32_t used, struct ff_err *err)
{
	struct uw_lprops lp;
	uint32_t end = UW_ALIGN(used, w->g.min_io);

	uw_pad(w->leb + used, end - used);
	if (ff_outfile_write(&w->out, w->leb, w->g.leb_size, err))
		return -1;
	lp.free = w->g.leb_size - end;
	lp.dirty = end - used;
	lp.flags = w->head_flags;
	if (ff_vec_push(&w->lp, &lp))
		return ff_err_set(err, ENOMEM, "out of memory for the LEB properties");
	memset(w->leb, 0xff, w->g.leb_size);
	w->head_lnum++;
	w->head_offs = 0;
	return 0;
}

int uw_head_flush(struct uw *w, struct ff_err *err)
{
	return w->head_offs ? write_leb(w, w->head_offs, err) : 0;
}

/* The GC LEB: reserved erased, as the kernel wants one at mount. */
int uw_head_empty_leb(struct uw *w, struct ff_err *err)
{
	if (uw_head_flush(w, err))
		return -1;
	return write_leb(w, 0, err);
}

int uw_head_place(struct uw *w, const uint8_t *node, uint32_t len, uint32_t *lnum,
		  uint32_t *offs, struct ff_err *err)
{
	if (len > w->g.leb_size - w->head_offs && uw_head_flush(w, err))
		return -1;
	if (w->head_lnum >= w->g.max_leb_cnt)
		return ff_err_set(err, ENOSPC, "-c %u: the tree does not fit in %u LEBs of %u bytes",
				  w->g.max_leb_cnt, w->g.max_leb_cnt, w->g.leb_size);
	*lnum = w->head_lnum;
	*offs = w->head_offs;
	memcpy(w->leb + w->head_offs, node, len);
	hash_node(w->hash, node, *lnum, *offs);
	w->head_offs += UW_ALIGN(len, 8);
	if (w->head_offs > w->g.leb_size)
		w->head_offs = w->g.leb_size;
	return 0;
}
