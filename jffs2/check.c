/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* check: the problems the scan and the build found (bad nodes with their
 * offsets and numbers, dirents to missing inodes, unreachable inodes),
 * then every reachable file's data decompressed, each node that fails
 * named. */
#include <stdlib.h>
#include <sys/stat.h>

#include "common/problems.h"
#include "jffs2/reader.h"

long j2_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	return ff_problem_replay(&((struct j2fs *)fs)->s.prob, fn, ctx);
}

/* Decompresses each node a file's fragments use, once. */
static long check_file(struct j2fs *j, const struct j2_ino *in, ff_problem_fn fn, void *ctx)
{
	uint32_t last = UINT32_MAX;
	long bad = 0;

	for (size_t k = 0; k < in->n_frags; k++) {
		const struct j2_inode_rec *r = &j->s.inodes[in->frags[k].node];
		struct ff_err err = { 0, "" };
		uint8_t *buf;

		if (in->frags[k].node == last)
			continue;
		last = in->frags[k].node;
		buf = malloc(r->dsize);
		if (!buf)
			return bad;
		if (j2_node_data(j, r, buf, &err) < 0) {
			fn(ctx, err.msg);
			bad++;
		}
		free(buf);
	}
	return bad;
}

long j2_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct j2fs *j = (struct j2fs *)fs;
	long n = ff_problem_replay(&j->s.prob, fn, ctx);

	for (size_t i = 0; i < j->t.n; i++) {
		const struct j2_ino *in = &j->t.inos[i];

		if (in->reachable && S_ISREG(in->mode))
			n += check_file(j, in, fn, ctx);
	}
	return n;
}
