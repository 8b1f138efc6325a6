/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Every main-area node goes through the one worker pool in ordered mode:
 * data blocks are compressed and finished by the workers, nodes made by
 * the walk pass through untouched, and the submitter places them at the
 * head oldest first.  The placement, and so the image, is the order of
 * submission whatever the number of workers.
 *
 * Nodes travel in batches of UW_BATCH: one hand-over between threads per
 * batch rather than per 4 KiB block keeps the pool's locking out of the
 * profile.  A pool record is just the batch's pointer; batches are
 * recycled by the submitter, which alone takes and returns them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/write_priv.h"

#define UW_BATCH 16u

struct uw_bent {
	uint32_t inum, lo, nlen, len, in_len;
	const char *name;
	uint64_t sqnum;
};

struct uw_batch {
	uint32_t n;
	struct uw_bent e[UW_BATCH];
	uint8_t in[UW_BATCH][UBIFS_BLOCK_SIZE];
	uint8_t node[UW_BATCH][UW_NODE_CAP];
};

static void run_job(void *user, void *job, unsigned worker)
{
	struct uw *w = user;
	struct uw_batch *b = *(struct uw_batch **)job;

	for (uint32_t k = 0; k < b->n; k++) {
		struct uw_bent *e = &b->e[k];
		uint8_t *node = b->node[k];
		uint32_t len, compr;

		if (!e->in_len)
			continue;
		len = uw_compress(w->cz[worker], b->in[k], e->in_len, node + UBIFS_DATA_NODE_SZ,
				  &compr);
		e->len = uw_data_encode(e->inum, e->lo & 0x1fffffffu, e->in_len, compr,
					node + UBIFS_DATA_NODE_SZ, len, node);
		uw_node_finish(node, e->len, UBIFS_DATA_NODE, e->sqnum);
	}
}

int uw_pipe_start(struct uw *w, struct ff_err *err)
{
	unsigned threads = w->o->threads ? w->o->threads : 1;
	struct ff_pool_cfg cfg = { threads, 0, sizeof(struct uw_batch *), 1, run_job, w };

	w->queue = cfg.queue = 2u * threads + 2u;
	w->pool = ff_pool_new(&cfg, err);
	if (!w->pool)
		return -1;
	w->n_cz = ff_pool_threads(w->pool) + 1;
	w->cz = calloc(w->n_cz, sizeof(*w->cz));
	if (!w->cz)
		return ff_err_set(err, ENOMEM, "out of memory for the compressors");
	for (unsigned i = 0; i < w->n_cz; i++)
		if (!(w->cz[i] = uw_cz_new(w->o, err)))
			return -1;
	return 0;
}

static int place(struct uw *w, const struct uw_bent *e, const uint8_t *node, struct ff_err *err)
{
	struct uw_ient ie = { e->inum, e->lo, e->name, e->nlen, 0, 0, e->len };

	if (uw_head_place(w, node, e->len, &ie.lnum, &ie.offs, err))
		return -1;
	if (ff_vec_push(&w->idx, &ie))
		return ff_err_set(err, ENOMEM, "out of memory for the index");
	if (e->in_len) {
		w->st->data_nodes++;
		w->st->data_bytes += e->in_len;
		w->st->stored_bytes += e->len - UBIFS_DATA_NODE_SZ;
	}
	return 0;
}

static int retire_one(struct uw *w, struct ff_err *err)
{
	struct uw_batch *b = NULL;
	int r = 0;

	if (!ff_pool_retire(w->pool, &b))
		return 0;
	for (uint32_t k = 0; k < b->n && !r; k++)
		r = place(w, &b->e[k], b->node[k], err);
	b->n = 0;
	if (ff_vec_push(&w->spare, &b)) {
		free(b);
		return r ? r : ff_err_set(err, ENOMEM, "out of memory");
	}
	return r;
}

static int send_batch(struct uw *w, struct ff_err *err)
{
	if (ff_pool_pending(w->pool) >= w->queue && retire_one(w, err))
		return -1;
	ff_pool_submit(w->pool, &w->cur);
	w->cur = NULL;
	return 0;
}

static struct uw_batch *take_batch(struct uw *w)
{
	struct uw_batch *b;

	if (w->spare.len) {
		b = ((struct uw_batch **)w->spare.data)[--w->spare.len];
		return b;
	}
	b = malloc(sizeof(*b));
	if (b)
		b->n = 0;
	return b;
}

int uw_pipe_submit(struct uw *w, const struct uw_job *j, struct ff_err *err)
{
	struct uw_bent *e;

	if (!w->cur && !(w->cur = take_batch(w)))
		return ff_err_set(err, ENOMEM, "out of memory for the node pipeline");
	e = &w->cur->e[w->cur->n];
	*e = (struct uw_bent){ j->inum, j->lo, j->nlen, j->len, j->in_len, j->name, j->sqnum };
	if (j->in_len)
		memcpy(w->cur->in[w->cur->n], j->in, j->in_len);
	else
		memcpy(w->cur->node[w->cur->n], j->node, j->len);
	if (++w->cur->n == UW_BATCH)
		return send_batch(w, err);
	return 0;
}

int uw_pipe_made(struct uw *w, struct uw_job *j, uint8_t type, struct ff_err *err)
{
	j->in_len = 0;
	uw_node_finish(j->node, j->len, type, ++w->sqnum);
	return uw_pipe_submit(w, j, err);
}

int uw_pipe_drain(struct uw *w, struct ff_err *err)
{
	if (w->cur && w->cur->n && send_batch(w, err))
		return -1;
	while (ff_pool_pending(w->pool))
		if (retire_one(w, err))
			return -1;
	return 0;
}

void uw_pipe_stop(struct uw *w)
{
	struct uw_batch *b;

	if (w->pool) {
		while (ff_pool_retire(w->pool, &b)) /* after a failure: the rest */
			free(b);
		ff_pool_free(w->pool);
	}
	w->pool = NULL;
	for (unsigned i = 0; w->cz && i < w->n_cz; i++)
		uw_cz_free(w->cz[i]);
	free(w->cz);
	w->cz = NULL;
	free(w->cur);
	w->cur = NULL;
	for (size_t i = 0; i < w->spare.len; i++)
		free(((struct uw_batch **)w->spare.data)[i]);
	ff_vec_free(&w->spare);
}
