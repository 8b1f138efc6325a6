/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The codec harness's blocks (measure.c, selfcheck.c): the corpus cut as
 * a block-based compressed file system cuts it, without naming one: each
 * unique file in order (every file with no_dedup), in blocks of the block
 * size (all-zero blocks kept apart, as sparse blocks are, unless
 * no_sparse), the files smaller than a block (every tail with
 * always_fragments, none with no_fragments) packed together into shared
 * blocks, the other tails short blocks of their own.  Sizes and read costs come from real
 * images (run.c, readcost.c); this only feeds the codec on blocks of the
 * size it will see, to time it. */
#include "bench/bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

static int is_zero(const uint8_t *p, uint32_t len)
{
	return len && p[0] == 0 && !memcmp(p, p + 1, len - 1);
}

static int push(struct bench_layout *l, const uint8_t *p, uint32_t len, uint32_t kind)
{
	uint64_t nb = l->cap_blocks;
	struct bench_block *b;

	if (grow((void **)&l->blocks, &nb, l->n_blocks + 1, sizeof(*b)) ||
	    grow((void **)&l->arena, &l->arena_cap, l->arena_len + len, 1))
		return -1;
	l->cap_blocks = (size_t)nb;
	memcpy(l->arena + l->arena_len, p, len);
	b = &l->blocks[l->n_blocks++];
	/* an offset until the arena stops moving; made a pointer at the end */
	b->p = (const uint8_t *)(uintptr_t)l->arena_len;
	b->len = len;
	b->kind = kind;
	l->n_frag_blocks += kind == BENCH_BLOCK_FRAG;
	l->bytes += len;
	l->arena_len += len;
	return 0;
}

/* The tails waiting for a shared block: [start, arena_len) once pushed. */
static int add_tail(struct bench_layout *l, uint8_t *pack, uint32_t *fill, const uint8_t *p,
		    uint32_t len)
{
	uint32_t bs = l->opts.block_size;

	if (*fill + len > bs) {
		if (push(l, pack, *fill, BENCH_BLOCK_FRAG))
			return -1;
		*fill = 0;
	}
	memcpy(pack + *fill, p, len);
	*fill += len;
	return 0;
}

static int cut_file(struct bench_layout *l, const uint8_t *p, uint64_t size, uint8_t *pack,
		    uint32_t *fill)
{
	uint32_t bs = l->opts.block_size;

	int small = size < bs;

	for (; size >= bs; p += bs, size -= bs)
		if (push(l, p, bs, !l->opts.no_sparse && is_zero(p, bs) ? BENCH_BLOCK_ZERO
									  : BENCH_BLOCK_DATA))
			return -1;
	if (!size)
		return 0;
	if (l->opts.no_fragments || (!small && !l->opts.always_fragments))
		return push(l, p, (uint32_t)size, BENCH_BLOCK_DATA);
	return add_tail(l, pack, fill, p, (uint32_t)size);
}

int bench_layout_build(const struct bench_corpus *c, const struct bench_layout_opts *o,
		       unsigned jobs, struct bench_layout *l, struct ff_err *err)
{
	uint8_t *pack = malloc(o->block_size ? o->block_size : 1);
	uint32_t fill = 0;
	int rc = pack && o->block_size ? 0 : -1;

	(void)jobs;
	memset(l, 0, sizeof(*l));
	l->opts = *o;
	if (o->block_size < 512 || (o->block_size & (o->block_size - 1))) {
		free(pack);
		return ff_err_set(err, EINVAL, "bench: block size %u is not a power of two "
				  "from 512", o->block_size);
	}
	for (size_t i = 0; rc == 0 && i < c->n_files; i++)
		if (c->files[i].dup_of < 0 || o->no_dedup)
			rc = cut_file(l, c->data + c->files[i].off, c->files[i].size, pack, &fill);
	if (rc == 0 && fill)
		rc = push(l, pack, fill, BENCH_BLOCK_FRAG);
	free(pack);
	if (rc) {
		bench_layout_free(l);
		return ff_err_set(err, ENOMEM, "bench: out of memory cutting the corpus into "
				  "%u-byte blocks", o->block_size);
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
