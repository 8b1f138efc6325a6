/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The bench's blocks and sizes come from the SquashFS writer itself, run
 * without writing an image (ff_sqfs_write with no path): the same dedup,
 * sparse detection, block splitting, fragment packing and metadata tables
 * as mkfs.squashfs, so a predicted size cannot drift from a real one.
 * The writer reports every block it compresses through block_cb; a layout
 * keeps a copy of each, in image order, for the timed passes. */
#include "bench/bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct capture {
	struct bench_layout *l;
	int failed;
};

static int grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
	uint64_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)(n * elem));
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

static void capture_block(void *ctx, enum ff_sqfs_block_kind kind, const void *in,
			  uint32_t in_len, uint32_t out_len, int stored_raw)
{
	struct capture *cap = ctx;
	struct bench_layout *l = cap->l;
	uint64_t nb = l->cap_blocks;
	struct bench_block *b;

	(void)out_len;
	(void)stored_raw;
	if (cap->failed || grow((void **)&l->blocks, &nb, l->n_blocks + 1, sizeof(*b)) ||
	    grow((void **)&l->arena, &l->arena_cap, l->arena_len + in_len, 1)) {
		cap->failed = 1;
		return;
	}
	l->cap_blocks = (size_t)nb;
	memcpy(l->arena + l->arena_len, in, in_len);
	b = &l->blocks[l->n_blocks++];
	/* an offset until the arena stops moving; made a pointer at the end */
	b->p = (const uint8_t *)(uintptr_t)l->arena_len;
	b->len = in_len;
	b->kind = kind == FF_SQFS_BLOCK_FRAGMENT ? BENCH_BLOCK_FRAG
		  : kind == FF_SQFS_BLOCK_SPARSE ? BENCH_BLOCK_ZERO : BENCH_BLOCK_DATA;
	l->n_frag_blocks += kind == FF_SQFS_BLOCK_FRAGMENT;
	l->bytes += in_len;
	l->arena_len += in_len;
}

int bench_dry_run(const struct bench_corpus *c, const struct bench_layout_opts *o,
		  const struct ff_comp *comp, unsigned jobs, struct bench_layout *l,
		  struct ff_sqfs_write_stats *st, struct ff_err *err)
{
	struct capture cap = { .l = l };
	struct ff_sqfs_write_opts wo = {
		.comp = comp, .block_size = o->block_size, .jobs = jobs, .mkfs_time = 0,
		.no_fragments = o->no_fragments, .always_fragments = o->always_fragments,
		.no_dedup = o->no_dedup, .no_sparse = o->no_sparse,
		.block_cb = l ? capture_block : NULL, .cb_ctx = &cap,
	};

	if (!c->tree)
		return ff_err_set(err, EINVAL, "bench: corpus not finished");
	if (ff_sqfs_write(c->tree, &wo, NULL, st, err))
		return -1;
	if (cap.failed)
		return ff_err_set(err, ENOMEM, "bench: out of memory for %zu blocks",
				  l->n_blocks + 1);
	return 0;
}

int bench_layout_build(const struct bench_corpus *c, const struct bench_layout_opts *o,
		       unsigned jobs, struct bench_layout *l, struct ff_err *err)
{
	struct ff_sqfs_write_stats st;
	struct ff_comp *comp;
	int rc;

	memset(l, 0, sizeof(*l));
	l->opts = *o;
	comp = ff_comp_new("lz4", o->block_size, err);
	if (!comp)
		return -1;
	rc = bench_dry_run(c, o, comp, jobs, l, &st, err);
	ff_comp_free(comp);
	if (rc) {
		bench_layout_free(l);
		return -1;
	}
	for (size_t i = 0; i < l->n_blocks; i++)
		l->blocks[i].p = l->arena + (uintptr_t)l->blocks[i].p;
	return 0;
}

void bench_layout_free(struct bench_layout *l)
{
	free(l->blocks);
	free(l->arena);
	memset(l, 0, sizeof(*l));
}
