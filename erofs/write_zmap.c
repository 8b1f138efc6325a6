/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A compressed file's map, full indexes (COMPRESSED_FULL): the 8-byte
 * map header (advice bits, algorithm, lcluster size = block size), 8
 * reserved bytes, then one 8-byte index per lcluster (one block of
 * decompressed data).  The lcluster where an extent starts is its HEAD
 * (or PLAIN, stored as is) with the offset inside it and the pcluster's
 * block; the others are NONHEAD with the distance back to their head and
 * on to the next one.  With big pclusters the first NONHEAD after a
 * compressed head carries its block count (the kernel looks there).  An
 * extent always ends in a later lcluster than it starts (the compressor
 * keeps only extents that save a block; plain ones are a block long), so
 * no lcluster has two heads. */
#include <errno.h>
#include <stdlib.h>

#include "common/endian.h"
#include "erofs/compressor.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

uint32_t ew_zmap_len(const struct ew *w, uint64_t size)
{
	uint64_t nlc = (size + w->blksz - 1) >> w->blkbits;

	return (uint32_t)(ER_MAP_HEADER_SIZE + 8 + nlc * ER_LCLUSTER_INDEX_SIZE);
}

static void put_head(uint8_t *ix, const struct ew_extent *x, uint32_t mask, uint32_t blk)
{
	ff_put_le16(ix, x->plain ? ER_LC_PLAIN : ER_LC_HEAD1);
	ff_put_le16(ix + 2, (uint16_t)(x->lstart & mask));
	ff_put_le32(ix + 4, blk);
}

static void put_nonheads(const struct ew *w, uint8_t *idx, const struct ew_extent *x,
			 uint64_t next_lcn, int bigpcl)
{
	uint64_t head = x->lstart >> w->blkbits;

	for (uint64_t lcn = head + 1; lcn < next_lcn; lcn++) {
		uint8_t *ix = idx + lcn * ER_LCLUSTER_INDEX_SIZE;
		uint32_t d0 = (uint32_t)(lcn - head);

		if (lcn == head + 1 && bigpcl && !x->plain)
			d0 = ER_LI_D0_CBLKCNT | x->cblks;
		ff_put_le16(ix, ER_LC_NONHEAD);
		ff_put_le16(ix + 4, (uint16_t)(d0 > 0xffff ? 0xffff : d0));
		ff_put_le16(ix + 6, (uint16_t)(next_lcn - lcn > 0xffff ? 0xffff : next_lcn - lcn));
	}
}

int ew_zmap_encode(const struct ew *w, struct ew_ino *e, const struct ew_extent *x, size_t n,
		   struct ff_err *err)
{
	uint64_t nlc = (e->size + w->blksz - 1) >> w->blkbits;
	int bigpcl = w->o->pcluster > w->blksz;
	uint8_t *b = calloc(1, e->zmeta_len);
	uint32_t blk = e->blkaddr;

	if (!b)
		return ff_err_set(err, ENOMEM, "compression map: out of memory");
	ff_put_le16(b + 4, bigpcl ? ER_ADVISE_BIG_PCLUSTER_1 : 0);
	b[6] = (uint8_t)ew_codec_alg(w->o->codec);
	b[7] = 0; /* lcluster = one block */
	for (size_t k = 0; k < n; k++) {
		uint64_t next = k + 1 < n ? x[k + 1].lstart >> w->blkbits : nlc;

		put_head(b + 16 + (x[k].lstart >> w->blkbits) * ER_LCLUSTER_INDEX_SIZE, &x[k],
			 w->blksz - 1, blk);
		put_nonheads(w, b + 16, &x[k], next, bigpcl);
		blk += x[k].cblks;
	}
	e->zmeta = b;
	return 0;
}
