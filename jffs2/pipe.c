/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Items through the one worker pool, in order.  A worker compresses a
 * page as if all of it may be stored (space = page bytes).  At layout,
 * mkfs.jffs2's split decides: when the rest of the erase block holds the
 * whole page the worker's result is the one mkfs would get; when it does
 * not, this thread compresses again with the room there is (once or
 * twice per erase block), and the rest of the page follows in the next
 * block. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jffs2/builder.h"

static void run(void *user, void *job, unsigned worker)
{
	struct j2_build *b = user;
	struct j2_item *it = job;

	if (it->kind != J2_ITEM_PAGE)
		return;
	it->compr = j2_compress(&b->o->compr, b->scratch[worker], it->buf, it->len, it->len,
				it->out, &it->used, &it->stored);
}

static void item_free(struct j2_item *it)
{
	free(it->buf);
	if (it->kind == J2_ITEM_PAGE && it->last)
		free(it->f);
}

/* One data node of the piece at p (len bytes left of the page). */
static int lay_piece(struct j2_build *b, struct j2_item *it, const uint8_t *p, uint32_t *len,
		     int first, struct ff_err *err)
{
	struct j2_inode_node *ri = &it->f->ri;
	uint32_t space, used, stored;
	const uint8_t *w;
	uint8_t head[J2_INODE_SIZE];
	unsigned compr;

	if (j2_lay_reserve(&b->lay, J2_INODE_SIZE + J2_MIN_DATA_LEN, err))
		return -1;
	space = j2_lay_room(&b->lay) - J2_INODE_SIZE; /* wraps as mkfs' does */
	if (space > *len)
		space = *len;
	if (first && space == it->len) {
		compr = it->compr;
		used = it->used;
		stored = it->stored;
		w = it->out;
	} else {
		compr = j2_compress(&b->o->compr, b->scratch[b->n_scratch - 1], p, *len, space,
				    b->main_out, &used, &stored);
		w = b->main_out;
	}
	if (compr == J2_COMPR_NONE)
		w = p;
	ri->version++;
	ri->csize = stored;
	ri->dsize = used;
	ri->compr = (uint8_t)compr;
	j2_inode_encode(head, ri, w, b->o->big_endian);
	ri->offset += used;
	*len -= used;
	b->st->data_nodes++;
	b->st->compressed_nodes += compr != J2_COMPR_NONE;
	b->st->data_in += used;
	b->st->data_out += stored;
	if (j2_lay_put(&b->lay, head, J2_INODE_SIZE, err))
		return -1;
	return j2_lay_put(&b->lay, w, stored, err);
}

static int lay_item(struct j2_build *b, struct j2_item *it, struct ff_err *err)
{
	uint32_t len = it->len;
	const uint8_t *p = it->buf;
	int first = 1;

	if (it->kind == J2_ITEM_NODE)
		return j2_lay_reserve(&b->lay, it->req, err) ||
		       j2_lay_put(&b->lay, it->buf, it->len, err) ? -1 : 0;
	while (len) {
		uint32_t before = len;

		if (lay_piece(b, it, p, &len, first, err))
			return -1;
		p += before - len;
		first = 0;
	}
	return 0;
}

static int retire_one(struct j2_build *b, int failed, struct ff_err *err)
{
	struct j2_item it;
	int r = 0;

	if (!ff_pool_retire(b->pool, &it))
		return 1;
	if (!failed)
		r = lay_item(b, &it, err);
	item_free(&it);
	return r;
}

int j2_pipe_start(struct j2_build *b, struct ff_err *err)
{
	unsigned threads = b->o->threads ? b->o->threads : 1;
	struct ff_pool_cfg cfg = { 0 };

	b->n_scratch = threads + 1;
	b->scratch = calloc(b->n_scratch, sizeof(*b->scratch));
	b->main_out = malloc(j2_compr_out_size(b->o->page_size));
	if (!b->scratch || !b->main_out)
		return ff_err_set(err, ENOMEM, "out of memory for the compressors");
	for (unsigned i = 0; i < b->n_scratch; i++)
		if (!(b->scratch[i] = j2_compr_scratch_new(b->o->page_size)))
			return ff_err_set(err, ENOMEM, "out of memory for the compressors");
	b->queue = 16 + 8 * (size_t)threads;
	cfg.threads = threads;
	cfg.queue = b->queue;
	cfg.job_size = sizeof(struct j2_item);
	cfg.ordered = 1;
	cfg.run = run;
	cfg.user = b;
	b->pool = ff_pool_new(&cfg, err);
	return b->pool ? 0 : -1;
}

int j2_pipe_submit(struct j2_build *b, const struct j2_item *it, struct ff_err *err)
{
	if (ff_pool_pending(b->pool) == b->queue && retire_one(b, 0, err) < 0) {
		free(it->buf);
		if (it->kind == J2_ITEM_PAGE && it->last)
			free(it->f);
		return -1;
	}
	ff_pool_submit(b->pool, it);
	return 0;
}

int j2_pipe_drain(struct j2_build *b, int failed, struct ff_err *err)
{
	int r;

	if (!b->pool)
		return failed ? -1 : 0;
	while ((r = retire_one(b, failed, err)) != 1)
		if (r < 0)
			failed = 1;
	return failed ? -1 : 0;
}

void j2_pipe_stop(struct j2_build *b)
{
	if (b->pool)
		ff_pool_free(b->pool);
	b->pool = NULL;
	for (unsigned i = 0; b->scratch && i < b->n_scratch; i++)
		j2_compr_scratch_free(b->scratch[i]);
	free(b->scratch);
	free(b->main_out);
	b->scratch = NULL;
	b->main_out = NULL;
}
