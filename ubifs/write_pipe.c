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
 * recycled by the submitter, which alone takes and returns them.
 *
 * Retired nodes wait in a look-ahead window of UW_LOOK before the head:
 * when the oldest does not fit in what is left of the head LEB, the
 * largest younger ones that do fit fill the gap first (best fit), so a
 * LEB is not closed with up to a data node's worth of padding.  The
 * kernel finds nodes through the index, in any order within the main
 * area.  The window is counted in nodes submitted, so the placement still
 * depends only on the order of submission. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ubifs/write_priv.h"

#define UW_BATCH 16u
#define UW_LOOK 64u

struct uw_bent {
	uint32_t inum, lo, nlen, len, in_len;
	const char *name;
	uint64_t sqnum;
};

/* The window: slot[(first + i) % UW_LOOK] for i < n, oldest first; a
 * node placed early to fill a gap is marked done and skipped. */
struct uw_look {
	uint32_t first, n;
	struct {
		struct uw_bent e;
		int done;
		uint8_t node[UW_NODE_CAP];
	} slot[UW_LOOK];
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
	if (!(w->look = calloc(1, sizeof(*w->look))))
		return ff_err_set(err, ENOMEM, "out of memory for the node window");
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

/* The largest waiting node after the oldest that fits in the head LEB's
 * space left; UW_LOOK if none. */
static uint32_t best_fit(const struct uw *w)
{
	const struct uw_look *l = w->look;
	uint32_t left = w->g.leb_size - w->head_offs, best = UW_LOOK, best_len = 0;

	for (uint32_t i = 1; i < l->n; i++) {
		uint32_t k = (l->first + i) % UW_LOOK, len = l->slot[k].e.len;

		if (!l->slot[k].done && len <= left && len > best_len) {
			best = k;
			best_len = len;
		}
	}
	return best;
}

/* Places the oldest waiting node, after filling the head LEB's gap when
 * it does not fit there, and drops it and the done nodes behind it. */
static int emit_oldest(struct uw *w, struct ff_err *err)
{
	struct uw_look *l = w->look;
	uint32_t k = l->first;

	if (l->slot[k].e.len > w->g.leb_size - w->head_offs)
		for (uint32_t b; (b = best_fit(w)) != UW_LOOK; l->slot[b].done = 1)
			if (place(w, &l->slot[b].e, l->slot[b].node, err))
				return -1;
	if (place(w, &l->slot[k].e, l->slot[k].node, err))
		return -1;
	do {
		l->first = (l->first + 1) % UW_LOOK;
		l->n--;
	} while (l->n && l->slot[l->first].done);
	return 0;
}

static int wait_node(struct uw *w, const struct uw_bent *e, const uint8_t *node,
		     struct ff_err *err)
{
	struct uw_look *l = w->look;
	uint32_t k;

	if (l->n == UW_LOOK && emit_oldest(w, err))
		return -1;
	k = (l->first + l->n++) % UW_LOOK;
	l->slot[k].e = *e;
	l->slot[k].done = 0;
	memcpy(l->slot[k].node, node, e->len);
	return 0;
}

static int retire_one(struct uw *w, struct ff_err *err)
{
	struct uw_batch *b = NULL;
	int r = 0;

	if (!ff_pool_retire(w->pool, &b))
		return 0;
	for (uint32_t k = 0; k < b->n && !r; k++)
		r = wait_node(w, &b->e[k], b->node[k], err);
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
	while (w->look->n)
		if (emit_oldest(w, err))
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
	free(w->look);
	w->look = NULL;
}
