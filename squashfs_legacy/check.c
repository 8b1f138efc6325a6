/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs check`: the tables were proven at open (tables.c); here the
 * tree walk reads every inode, listing and data block (walk.c), the
 * superblock's inode count is compared with the inodes found, and in 3.x
 * the export table must name, for each inode number, the inode that holds
 * that number. */
#include <errno.h>

#include "squashfs_legacy/walk.h"

static void check_export(struct lsq_walk *w)
{
	struct lsq_rd *rd = w->rd;
	struct ff_err err = {0};

	if (!rd->export_index)
		return;
	for (uint32_t n = 1; n <= rd->sb.inodes; n++) {
		struct lsq_inode in;
		uint64_t ref;

		if (lsq_export_ref(rd, n, &ref, &err) < 0 || lsq_inode_load(rd, ref, &in, &err) < 0) {
			ff_problemf(&w->out, "export table: inode number %u: %s", n, err.msg);
			return;
		}
		if (in.ino != n) {
			ff_problemf(&w->out, "export table: inode number %u points at inode %llu, "
				    "which holds number %u", n, (unsigned long long)ref, in.ino);
			return;
		}
	}
}

long lsq_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct lsq_walk w = {.rd = (struct lsq_rd *)fs, .deep = 1, .out = {fn, ctx, 0}};
	long n;

	lsq_walk_tree(&w);
	if (w.distinct != w.rd->sb.inodes)
		ff_problemf(&w.out, "superblock counts %u inodes, the tree holds %llu",
			    w.rd->sb.inodes, (unsigned long long)w.distinct);
	check_export(&w);
	n = w.out.count;
	lsq_walk_free(&w);
	return n;
}
