/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The block processor: worker threads of the common pool (ordered mode)
 * compress data and fragment blocks in parallel, each with its own codec
 * context; the submitting thread retires results strictly in submission
 * order, so the image bytes do not depend on the number of threads or on
 * which thread finished first.
 *
 * Memory is bounded by the ring of slots: two block-size buffers per slot,
 * whatever the size of the files.  When the ring is full the submitter
 * retires down to three quarters before filling again, so it sleeps once
 * per batch of blocks instead of once per block, and the workers always
 * have a queue to take from. */
#include "squashfs/block_proc.h"
#include "squashfs/writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/pool.h"

#define RING_BYTES_MAX (24u << 20) /* cap on buffer memory */
#define RING_PER_THREAD 12       /* slots per worker: slack for uneven blocks */

struct sqfs_block_proc {
	struct ff_pool *pool;     /* jobs are struct sqfs_block pointers */
	struct sqfs_block *slots;
	size_t n_slots;
	uint64_t submit;          /* slots handed out, on the submitting thread */
	struct ff_comp_ctx **ctx; /* one per worker */
	unsigned n_ctx;
	uint32_t block_size;
	sqfs_retire_fn retire_fn;
	void *user;
};

static void process(struct sqfs_block *b, struct ff_comp_ctx *ctx)
{
	ssize_t n;

	b->raw = 0;
	b->failed = 0;
	if (b->kind == FF_SQFS_BLOCK_DATA && b->check_sparse && ff_is_zero(b->in, b->in_len)) {
		b->kind = FF_SQFS_BLOCK_SPARSE;
		b->out_len = 0;
		return;
	}
	n = b->store_raw ? FF_COMP_NOSHRINK
			 : ff_comp_compress(ctx, b->in, b->in_len, b->out, b->in_len, &b->err);
	if (n < 0) {
		b->failed = 1;
	} else if (n == FF_COMP_NOSHRINK) {
		b->raw = 1;
		b->out_len = b->in_len;
	} else {
		b->out_len = (uint32_t)n;
	}
}

static void run_job(void *user, void *job, unsigned worker)
{
	struct sqfs_block_proc *bp = user;

	process(*(struct sqfs_block **)job, bp->ctx[worker]);
}

static size_t ring_size(uint32_t block_size, unsigned threads)
{
	size_t n = RING_PER_THREAD * ((size_t)threads + 1);
	size_t max = RING_BYTES_MAX / (2 * (size_t)block_size);

	if (n > max)
		n = max;
	return n < (size_t)threads + 1 ? (size_t)threads + 1 : n;
}

static int alloc_slots(struct sqfs_block_proc *bp, struct ff_err *err)
{
	bp->slots = calloc(bp->n_slots, sizeof(*bp->slots));
	if (!bp->slots)
		return ff_err_set(err, ENOMEM, "block processor: out of memory");
	for (size_t i = 0; i < bp->n_slots; i++) {
		bp->slots[i].in = malloc(bp->block_size);
		bp->slots[i].out = malloc(bp->block_size);
		if (!bp->slots[i].in || !bp->slots[i].out)
			return ff_err_set(err, ENOMEM,
					  "block processor: out of memory for %zu buffers of %u bytes",
					  2 * bp->n_slots, bp->block_size);
	}
	return 0;
}

static int start_pool(struct sqfs_block_proc *bp, const struct ff_comp *comp,
		      unsigned threads, struct ff_err *err)
{
	struct ff_pool_cfg cfg = {.threads = threads, .queue = bp->n_slots,
				  .job_size = sizeof(struct sqfs_block *), .ordered = 1,
				  .run = run_job, .user = bp};

	bp->ctx = calloc(threads, sizeof(*bp->ctx));
	if (!bp->ctx)
		return ff_err_set(err, ENOMEM, "block processor: out of memory");
	for (; bp->n_ctx < threads; bp->n_ctx++) {
		bp->ctx[bp->n_ctx] = ff_comp_ctx_new(comp, err);
		if (!bp->ctx[bp->n_ctx])
			return -1;
	}
	bp->pool = ff_pool_new(&cfg, err);
	return bp->pool ? 0 : -1;
}

struct sqfs_block_proc *sqfs_block_proc_new(const struct ff_comp *comp, uint32_t block_size,
					    unsigned threads, sqfs_retire_fn retire, void *user,
					    struct ff_err *err)
{
	struct sqfs_block_proc *bp = calloc(1, sizeof(*bp));
	unsigned want = threads ? threads : 1;

	if (!bp) {
		ff_err_set(err, ENOMEM, "block processor: out of memory");
		return NULL;
	}
	bp->block_size = block_size;
	bp->retire_fn = retire;
	bp->user = user;
	bp->n_slots = ring_size(block_size, want);
	if (alloc_slots(bp, err) < 0 || start_pool(bp, comp, want, err) < 0) {
		sqfs_block_proc_free(bp);
		return NULL;
	}
	return bp;
}

/* Wait for the oldest block and hand it to the retire callback. */
static int retire_one(struct sqfs_block_proc *bp, struct ff_err *err)
{
	struct sqfs_block *b;

	if (!ff_pool_retire(bp->pool, &b))
		return 0;
	if (b->failed) {
		*err = b->err;
		return -1;
	}
	return bp->retire_fn(bp->user, b, err);
}

struct sqfs_block *sqfs_block_proc_get(struct sqfs_block_proc *bp, struct ff_err *err)
{
	struct sqfs_block *b;
	size_t n = bp->n_slots;

	/* a full ring is emptied to three quarters, so the submitter sleeps
	 * once per batch of blocks, not once per block */
	if (ff_pool_pending(bp->pool) == n)
		while (ff_pool_pending(bp->pool) > n - (n + 3) / 4)
			if (retire_one(bp, err) < 0)
				return NULL;
	b = &bp->slots[bp->submit % n];
	b->kind = FF_SQFS_BLOCK_DATA;
	b->check_sparse = 0;
	b->store_raw = 0;
	b->owner = NULL;
	b->idx = 0;
	b->in_len = b->out_len = 0;
	return b;
}

void sqfs_block_proc_submit(struct sqfs_block_proc *bp, struct sqfs_block *b)
{
	bp->submit++;
	ff_pool_submit(bp->pool, &b);
}

int sqfs_block_proc_drain(struct sqfs_block_proc *bp, struct ff_err *err)
{
	while (ff_pool_pending(bp->pool))
		if (retire_one(bp, err) < 0)
			return -1;
	return 0;
}

void sqfs_block_proc_free(struct sqfs_block_proc *bp)
{
	if (!bp)
		return;
	/* the workers finish what is queued before any buffer goes */
	ff_pool_free(bp->pool);
	for (unsigned i = 0; i < bp->n_ctx; i++)
		ff_comp_ctx_free(bp->ctx[i]);
	for (size_t i = 0; bp->slots && i < bp->n_slots; i++) {
		free(bp->slots[i].in);
		free(bp->slots[i].out);
	}
	free(bp->slots);
	free(bp->ctx);
	free(bp);
}
