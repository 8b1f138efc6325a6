/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File and symlink data, in pre-order after the listings: per entry a
 * table of block-end pointers, then each block as its own zlib stream
 * (at the default level, as mkfs.cramfs' compress() does), an all-zero
 * block with -z stored as nothing (a hole); the next entry starts on a
 * 4-byte boundary.  This thread decides sharing and reads the blocks;
 * the pool (write_blocks.c) compresses them and lays them out in order. */
#include <errno.h>
#include <sys/stat.h>

#include "cramfs/write_priv.h"

/* Every block of the entry read and queued. */
static int submit_blocks(struct cw *w, const struct ff_node *n, uint32_t size,
			 struct ff_err *err)
{
	uint32_t bs = w->o->blksize, blocks = (size - 1) / bs + 1;
	struct ff_data *d = NULL;
	int r = 0;

	for (uint32_t i = 0; i < blocks && !r; i++) {
		struct cw_item *it = cw_pipe_item(w, err);

		if (!it) {
			r = -1; /* an earlier job's error, already named */
			break;
		}
		it->n = n;
		it->block = i;
		it->blocks = blocks;
		it->len = size - i * bs < bs ? size - i * bs : bs;
		r = cw_content(w, n, &d, it->in, it->len, (uint64_t)i * bs, err);
		if (!r)
			cw_pipe_add(w);
	}
	if (d)
		ff_data_close(d);
	return r;
}

static int data_of(struct cw *w, const struct ff_node *n, struct ff_err *err)
{
	uint32_t size = cw_data_size(w, n);
	const struct ff_node *same;

	if (!size)
		return 0;
	if (cw_find_same(w, n, &same, err))
		return -1;
	if (same) {
		struct cw_item *it = cw_pipe_item(w, err);

		if (!it)
			return -1;
		it->n = n;
		it->same = same;
		cw_pipe_add(w);
		return 0;
	}
	return submit_blocks(w, n, size, err);
}

/* How many entries have each data size: only those two share are
 * compared. */
static int count_sizes(struct cw *w, struct ff_err *err)
{
	for (const struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		uint32_t size = n->index ? cw_data_size(w, n) : 0;
		uint64_t count = 0;

		if (!size || n == ff_tree_root(w->tree))
			continue;
		ff_hmap_find(&w->sizes, &size, sizeof(size), &count);
		if (ff_hmap_set(&w->sizes, &size, sizeof(size), count + 1))
			return ff_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int cw_write_data(struct cw *w, struct ff_err *err)
{
	const struct ff_node *n = ff_tree_next(w->tree, ff_tree_root(w->tree));
	struct ff_err late = { 0, "" };
	int r = count_sizes(w, err) || cw_pipe_start(w, err) ? -1 : 0;

	for (; n && !r; n = ff_tree_next(w->tree, n))
		if ((r = data_of(w, n, err)) && !w->failed)
			ff_err_prefix(err, "%s", ff_node_name(n));
	/* An earlier entry's error, found as its blocks retire, is the one
	 * the image's order meets first: it wins over a later read error. */
	if (cw_pipe_drain(w, &late)) {
		*err = late;
		r = -1;
	}
	cw_pipe_stop(w);
	return r;
}
