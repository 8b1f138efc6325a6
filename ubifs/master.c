/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The master node: the index root, the log's start, the commit number and
 * the space totals.  It is written in turn to LEBs 1 and 2, each copy at
 * the next min. I/O unit; as the kernel's master.c does, the last node of
 * each LEB is taken, and where the two differ (a write cut by a power
 * loss) the newer valid copy wins. */
#include <errno.h>
#include <string.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/ubifs.h"

static void decode(const uint8_t *p, struct ubifs_master *m)
{
	m->sqnum = ff_get_le64(p + CH_SQNUM);
	m->highest_inum = ff_get_le64(p + MST_HIGHEST_INUM);
	m->cmt_no = ff_get_le64(p + MST_CMT_NO);
	m->flags = ff_get_le32(p + MST_FLAGS);
	m->log_lnum = ff_get_le32(p + MST_LOG_LNUM);
	m->root.lnum = ff_get_le32(p + MST_ROOT_LNUM);
	m->root.offs = ff_get_le32(p + MST_ROOT_OFFS);
	m->root.len = ff_get_le32(p + MST_ROOT_LEN);
	m->gc_lnum = ff_get_le32(p + MST_GC_LNUM);
	m->ihead_lnum = ff_get_le32(p + MST_IHEAD_LNUM);
	m->ihead_offs = ff_get_le32(p + MST_IHEAD_OFFS);
	m->index_size = ff_get_le64(p + MST_INDEX_SIZE);
	m->total_free = ff_get_le64(p + MST_TOTAL_FREE);
	m->total_dirty = ff_get_le64(p + MST_TOTAL_DIRTY);
	m->total_used = ff_get_le64(p + MST_TOTAL_USED);
	m->total_dead = ff_get_le64(p + MST_TOTAL_DEAD);
	m->total_dark = ff_get_le64(p + MST_TOTAL_DARK);
	m->empty_lebs = ff_get_le32(p + MST_EMPTY_LEBS);
	m->idx_lebs = ff_get_le32(p + MST_IDX_LEBS);
	m->leb_cnt = ff_get_le32(p + MST_LEB_CNT);
	m->lpt_lnum = ff_get_le32(p + MST_LPT_LNUM);
	m->lpt_offs = ff_get_le32(p + MST_LPT_OFFS);
	m->ltab_lnum = ff_get_le32(p + MST_LTAB_LNUM);
	m->ltab_offs = ff_get_le32(p + MST_LTAB_OFFS);
}

/* The last master node of one master LEB, or NULL. */
static const uint8_t *last_master(struct ubifs_fs *u, uint32_t lnum, struct ubifs_sleb *s,
				  uint32_t *offs)
{
	if (ubifs_scan(u, lnum, 0, s) < 0)
		return NULL;
	if (s->end == UBIFS_SCAN_CORRUPT)
		ff_problem_add(&u->problems, "master LEB %u: offset %u: %s", lnum, s->endpt,
			       s->why);
	for (size_t i = s->n; i-- > 0;)
		if (s->v[i].ch.type == UBIFS_MST_NODE) {
			*offs = s->v[i].offs;
			return s->v[i].p;
		}
	return NULL;
}

static int validate(struct ubifs_fs *u, const struct ubifs_master *m, struct ff_err *err)
{
	const struct ubifs_super *sb = &u->sb;

	if (m->leb_cnt < sb->leb_cnt || m->leb_cnt > sb->max_leb_cnt)
		return ff_err_set(err, EINVAL, "UBIFS master node: LEB count %u outside %u..%u",
				  m->leb_cnt, sb->leb_cnt, sb->max_leb_cnt);
	if (m->log_lnum < UBIFS_LOG_LNUM || m->log_lnum >= UBIFS_LOG_LNUM + sb->log_lebs)
		return ff_err_set(err, EINVAL, "UBIFS master node: log start LEB %u outside the "
				  "log (%u..%u)", m->log_lnum, UBIFS_LOG_LNUM,
				  UBIFS_LOG_LNUM + sb->log_lebs - 1);
	if (m->root.lnum < u->main_first || m->root.lnum >= m->leb_cnt ||
	    m->root.offs % 8 || m->root.offs > sb->leb_size ||
	    m->root.len > sb->leb_size - m->root.offs || m->root.len > u->max_znode_len)
		return ff_err_set(err, EINVAL, "UBIFS master node: index root at LEB %u:%u (%u "
				  "bytes) outside the main area (LEBs %u..%u of %u bytes)",
				  m->root.lnum, m->root.offs, m->root.len, u->main_first,
				  m->leb_cnt - 1, sb->leb_size);
	return 0;
}

int ubifs_master_read(struct ubifs_fs *u, struct ff_err *err)
{
	struct ubifs_sleb s1, s2;
	uint32_t o1 = 0, o2 = 0;
	const uint8_t *m1 = last_master(u, UBIFS_MST_LNUM, &s1, &o1);
	const uint8_t *m2 = last_master(u, UBIFS_MST_LNUM + 1, &s2, &o2);
	const uint8_t *pick = m1;
	int ret = 0;

	if (!m1 && !m2) {
		ret = ff_err_set(err, EIO, "UBIFS: no valid master node in LEB 1 or 2");
		goto out;
	}
	if (!m1 || (m2 && ff_get_le64(m2 + CH_SQNUM) > ff_get_le64(m1 + CH_SQNUM)))
		pick = m2;
	decode(pick, &u->mst);
	u->mst.at_lnum = pick == m1 ? UBIFS_MST_LNUM : UBIFS_MST_LNUM + 1;
	u->mst.at_offs = pick == m1 ? o1 : o2;
	u->mst.copies_differ = !m1 || !m2 ||
			       memcmp(m1 + UBIFS_CH_SZ, m2 + UBIFS_CH_SZ,
				      UBIFS_MST_NODE_SZ - UBIFS_CH_SZ) != 0;
	if (u->mst.copies_differ)
		ff_problem_add(&u->problems,
			       "master LEBs 1 and 2 differ; the newer copy (LEB %u:%u, sqnum "
			       "%llu) is used", u->mst.at_lnum, u->mst.at_offs,
			       (unsigned long long)u->mst.sqnum);
	ret = validate(u, &u->mst, err);
	if (!ret)
		u->sb.leb_cnt = u->mst.leb_cnt; /* the kernel grows the volume at mount */
out:
	ubifs_sleb_free(&s1);
	ubifs_sleb_free(&s2);
	return ret;
}
