/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The log: LEBs 3 .. 3 + log_lebs - 1, used as a ring from the master
 * node's log_lnum.  It starts with a commit-start node of the master's
 * commit number and then holds reference nodes, each naming a bud (a LEB
 * of the journal and the offset its new nodes start at) for a journal
 * head.  As in the kernel's replay_log_leb, the log ends at a LEB with no
 * nodes or whose first node is older than the commit start. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/replay.h"

static int add_bud(struct ubifs_fs *u, struct ubifs_buds *b, const uint8_t *p, uint64_t sqnum)
{
	uint32_t lnum = ff_get_le32(p + REF_LNUM), offs = ff_get_le32(p + REF_OFFS);
	uint32_t jhead = ff_get_le32(p + REF_JHEAD);
	void *seen;

	if (jhead >= u->sb.jhead_cnt + 2 || lnum < u->main_first || lnum >= u->sb.leb_cnt ||
	    offs > u->sb.leb_size || offs % u->sb.min_io) {
		ff_problem_add(&u->problems, "log: reference to LEB %u:%u, head %u is invalid",
			       lnum, offs, jhead);
		return -EINVAL;
	}
	seen = ff_hmap_get(&b->seen, lnum);
	if (seen) {
		const struct ubifs_bud *old = &b->v[(uintptr_t)seen - 1];

		if (old->jhead == jhead && old->start <= offs)
			return 0; /* the same bud again (the kernel skips it too) */
		ff_problem_add(&u->problems, "log: bud LEB %u referred to twice", lnum);
		return -EINVAL;
	}
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 32;
		struct ubifs_bud *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->v = v;
		b->cap = cap;
	}
	if (ff_hmap_put(&b->seen, lnum, (void *)(uintptr_t)(b->n + 1)) < 0)
		return -ENOMEM;
	b->v[b->n++] = (struct ubifs_bud){ lnum, offs, jhead, sqnum };
	return 0;
}

/* The log LEB's nodes; 1 when the log ends before it, 0 to go on. */
static int log_nodes(struct ubifs_fs *u, uint32_t lnum, const struct ubifs_sleb *s,
		     struct ubifs_buds *b)
{
	const struct ubifs_snode *first = &s->v[0];

	if (!u->js.cs_sqnum) {
		if (first->ch.type != UBIFS_CS_NODE ||
		    ff_get_le64(first->p + CS_CMT_NO) != u->mst.cmt_no) {
			ff_problem_add(&u->problems,
				       "log LEB %u: the log head is not a commit start of "
				       "commit %llu", lnum, (unsigned long long)u->mst.cmt_no);
			return -EINVAL;
		}
		u->js.cs_sqnum = first->ch.sqnum;
	}
	if (first->ch.sqnum < u->js.cs_sqnum)
		return 1; /* older, committed log data: the end of the log */
	for (size_t i = 0; i < s->n; i++) {
		const struct ubifs_snode *n = &s->v[i];
		int ret = 0;

		if (n->ch.sqnum < u->js.cs_sqnum ||
		    (n->ch.type != UBIFS_REF_NODE && n->ch.type != UBIFS_CS_NODE) ||
		    (n->ch.type == UBIFS_CS_NODE && n->offs != 0)) {
			ff_problem_add(&u->problems,
				       "log LEB %u:%u: unexpected node (type %u, sqnum %llu)",
				       lnum, n->offs, n->ch.type, (unsigned long long)n->ch.sqnum);
			return -EINVAL;
		}
		if (n->ch.sqnum > u->js.max_sqnum)
			u->js.max_sqnum = n->ch.sqnum;
		if (n->ch.type == UBIFS_CS_NODE)
			u->js.cs_nodes++;
		else if ((ret = add_bud(u, b, n->p, n->ch.sqnum)) == 0)
			u->js.refs++;
		if (ret == -ENOMEM || ret == -EINVAL)
			return ret;
	}
	return 0;
}

int ubifs_log_read(struct ubifs_fs *u, struct ubifs_buds *b)
{
	uint32_t first = u->mst.log_lnum, lnum = first;

	do {
		struct ubifs_sleb s;
		int ret = ubifs_scan(u, lnum, 0, &s);

		if (ret < 0) {
			ubifs_sleb_free(&s);
			return ret;
		}
		u->js.log_lebs_read++;
		if (s.end == UBIFS_SCAN_CORRUPT && !u->js.need_recovery)
			ff_problem_add(&u->problems, "log LEB %u:%u: %s", lnum, s.endpt, s.why);
		if (s.n == 0)
			ret = 1;
		else if (s.v[0].offs != 0 && (!u->js.cs_sqnum || s.v[0].ch.sqnum >= u->js.cs_sqnum))
			ret = -EINVAL, ff_problem_add(&u->problems,
						      "log LEB %u: first node not at offset 0", lnum);
		else
			ret = log_nodes(u, lnum, &s, b);
		ubifs_sleb_free(&s);
		if (ret == 1 && lnum == first) {
			ff_problem_add(&u->problems, "log LEB %u: no nodes at the log head", lnum);
			return -EINVAL;
		}
		if (ret)
			return ret == 1 ? 0 : ret;
		lnum = lnum + 1 < UBIFS_LOG_LNUM + u->sb.log_lebs ? lnum + 1 : UBIFS_LOG_LNUM;
	} while (lnum != first);
	return 0;
}
