/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The master node (LEBs 1 and 2, the same copy in each): where the index
 * root, the index head, the LEB properties tree and the GC LEB are, and
 * the space totals the kernel's validate_master bounds. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

#define MST_LPT_LNUM 120
#define MST_LSCAN_LNUM 152

uint32_t uw_master_encode(const struct uw *w, uint8_t *p)
{
	const struct uw_lpt_pos *l = &w->lpt;
	const uint32_t lpt[8] = { l->lpt_lnum, l->lpt_offs, l->nhead_lnum, l->nhead_offs,
				  l->ltab_lnum, l->ltab_offs, l->lsave_lnum, l->lsave_offs };

	memset(p, 0, UBIFS_MST_NODE_SZ);
	ff_put_le64(p + MST_HIGHEST_INUM, w->highest_inum);
	ff_put_le64(p + MST_CMT_NO, 0);
	ff_put_le32(p + MST_FLAGS, UBIFS_MST_NO_ORPHS);
	ff_put_le32(p + MST_LOG_LNUM, UBIFS_LOG_LNUM);
	ff_put_le32(p + MST_ROOT_LNUM, w->root_lnum);
	ff_put_le32(p + MST_ROOT_OFFS, w->root_offs);
	ff_put_le32(p + MST_ROOT_LEN, w->root_len);
	ff_put_le32(p + MST_GC_LNUM, w->gc_lnum);
	ff_put_le32(p + MST_IHEAD_LNUM, w->ihead_lnum);
	ff_put_le32(p + MST_IHEAD_OFFS, w->ihead_offs);
	ff_put_le64(p + MST_INDEX_SIZE, w->index_size);
	ff_put_le64(p + MST_TOTAL_FREE, w->lst.total_free);
	ff_put_le64(p + MST_TOTAL_DIRTY, w->lst.total_dirty);
	ff_put_le64(p + MST_TOTAL_USED, w->lst.total_used);
	ff_put_le64(p + MST_TOTAL_DEAD, w->lst.total_dead);
	ff_put_le64(p + MST_TOTAL_DARK, w->lst.total_dark);
	for (int i = 0; i < 8; i++)
		ff_put_le32(p + MST_LPT_LNUM + 4 * i, lpt[i]);
	ff_put_le32(p + MST_LSCAN_LNUM, w->g.main_first);
	ff_put_le32(p + MST_EMPTY_LEBS, w->lst.empty_lebs);
	ff_put_le32(p + MST_IDX_LEBS, w->lst.idx_lebs);
	ff_put_le32(p + MST_LEB_CNT, w->leb_cnt);
	return UBIFS_MST_NODE_SZ;
}
