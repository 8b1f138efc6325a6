/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One walk of the tree from the root, shared by `check` (everything, with
 * every data block decompressed) and `info` (counting inodes).  Each inode
 * is visited once however many names it has; a directory met a second time
 * is a problem and is not entered again, so a looping image ends. */
#ifndef FF_SQUASHFS_LEGACY_WALK_H
#define FF_SQUASHFS_LEGACY_WALK_H

#include "common/hmap.h"
#include "common/problems.h"
#include "squashfs_legacy/legacy.h"

struct lsq_walk {
	struct lsq_rd *rd;
	int deep;                    /* read every data block, check links */
	struct ff_problem_sink out;  /* a NULL fn only counts (info) */
	uint64_t by_type[8];         /* distinct inodes by kind */
	uint64_t distinct;
	struct ff_hmap seen;         /* ref -> links found << 32 | nlink */
	uint64_t *refs;              /* 3.x non-directories, for link counts */
	size_t n_refs, cap_refs;
	char path[4096];
};

/* Walks from the root; returns the number of problems (walk->out.count). */
long lsq_walk_tree(struct lsq_walk *w);
void lsq_walk_free(struct lsq_walk *w);

#endif
