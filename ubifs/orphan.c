/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The orphan area: inode numbers whose inode was committed with no links
 * while still open.  After an unclean unmount the kernel (orphan.c,
 * kill_orphans) deletes each one whose inode still has no links; the
 * orphan nodes of the last commit are read in LEB order, and an orphan
 * node older than a flagged last node of a newer commit ends the area. */
#include <errno.h>
#include <stdint.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/ubifs.h"

#define LAST_OF_COMMIT (1ull << 63)

struct orph_state {
	uint64_t last_cmt_no;
	int last_flagged, outofdate;
};

static int kill_one(struct ubifs_fs *u, uint64_t inum)
{
	struct ubifs_ino ino;

	u->js.orphans++;
	if (inum > UINT32_MAX || ubifs_read_inode(u, inum, &ino) < 0 || ino.nlink != 0)
		return 0;
	u->js.orphans_killed++;
	return ubifs_ov_range(&u->ov, (uint32_t)inum, 0, UINT32_MAX, u->js.max_sqnum + 1);
}

static int orphan_node(struct ubifs_fs *u, const struct ubifs_sleb *s, size_t i,
		       struct orph_state *st)
{
	const struct ubifs_snode *n = &s->v[i];
	uint64_t raw = ff_get_le64(n->p + ORPH_CMT_NO), cmt_no = raw & ~LAST_OF_COMMIT;
	uint32_t cnt = (n->ch.len - UBIFS_ORPH_NODE_SZ) / 8;

	if (n->ch.type != UBIFS_ORPH_NODE) {
		ff_problem_add(&u->problems, "orphan area: node of type %u at offset %u",
			       n->ch.type, n->offs);
		return -EINVAL;
	}
	if (cmt_no < st->last_cmt_no && st->last_flagged) {
		if (i)
			ff_problem_add(&u->problems,
				       "orphan area: out of order commit number %llu at offset "
				       "%u", (unsigned long long)cmt_no, n->offs);
		st->outofdate = 1;
		return 0;
	}
	for (uint32_t k = 0; k < cnt; k++) {
		int ret = kill_one(u, ff_get_le64(n->p + ORPH_INOS + 8 * k));

		if (ret)
			return ret;
	}
	st->last_cmt_no = cmt_no;
	st->last_flagged = (raw & LAST_OF_COMMIT) != 0;
	return 0;
}

int ubifs_orphans(struct ubifs_fs *u)
{
	struct orph_state st = { 0, 0, 0 };
	int ret = 0;

	if (u->mst.flags & UBIFS_MST_NO_ORPHS)
		return 0;
	for (uint32_t l = 0; l < u->sb.orph_lebs && !st.outofdate && !ret; l++) {
		struct ubifs_sleb s;

		ret = ubifs_scan(u, u->orph_first + l, 0, &s);
		for (size_t i = 0; !ret && i < s.n && !st.outofdate; i++)
			ret = orphan_node(u, &s, i, &st);
		ubifs_sleb_free(&s);
	}
	ubifs_ov_finish(&u->ov);
	return ret == -ENOMEM ? ret : 0;
}
