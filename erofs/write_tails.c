/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The data pass's inline tails, on their way to their places in the first
 * meta region (read back from there by write_meta.c).  A write each would
 * be a system call per small file; instead a block is gathered in memory
 * until the last tail placed in it has come (the inodes were placed
 * before the data pass, so each block's count is known), then written
 * whole, once: the rest of it is still a hole, so its zeros overwrite
 * nothing.  Blocks still gathering are few (they begin in placement
 * order, and a later inode fills one only while it has room); past a
 * bound the lowest is written as it is, and its later tails go one write
 * each. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "erofs/write_priv.h"

/* the most bytes of blocks gathered at a time */
#define GATHER (4u << 20)

struct ew_tails {
	uint16_t *pending;         /* per block: tails still to come (0: write
				      them one by one) */
	uint8_t **open;            /* per block: its bytes so far, or NULL */
	uint32_t nblk, nopen, cap;
	uint32_t low;              /* no block below it is open */
};

/* A tail the data pass writes (ew_write_flat): placed before the data,
 * a flat layout's last partial block behind the inode. */
static int goes_out(const struct ew_ino *e)
{
	return !e->late && !e->compressed && e->inline_len;
}

static uint64_t tail_pos(const struct ew_ino *e)
{
	return (e->nid << 5) + ew_inode_tail_at(e);
}

int ew_tails_init(struct ew *w, struct ff_err *err)
{
	struct ew_tails *t = calloc(1, sizeof(*t));

	if (t) {
		t->nblk = w->xattr_blkaddr;
		t->pending = calloc((size_t)t->nblk + 1, sizeof(*t->pending));
		t->open = calloc((size_t)t->nblk + 1, sizeof(*t->open));
		t->cap = GATHER >> w->blkbits > 16 ? GATHER >> w->blkbits : 16;
		t->low = t->nblk;
	}
	w->tails = t;
	if (!t || !t->pending || !t->open)
		return ff_err_set(err, ENOMEM, "inline tails: out of memory (%u meta blocks)",
				  w->xattr_blkaddr);
	for (uint32_t i = 0; i < w->n_inos; i++)
		if (goes_out(&w->inos[i]))
			t->pending[tail_pos(&w->inos[i]) >> w->blkbits]++;
	return 0;
}

/* Block k as gathered so far, then its later tails one by one. */
static int put_block(struct ew *w, struct ew_tails *t, uint32_t k, struct ff_err *err)
{
	int r = ff_outfile_pwrite(&w->out, t->open[k], w->blksz, (uint64_t)k << w->blkbits, err);

	free(t->open[k]);
	t->open[k] = NULL;
	t->pending[k] = 0;
	t->nopen--;
	return r;
}

static int open_block(struct ew *w, struct ew_tails *t, uint32_t k, struct ff_err *err)
{
	if (t->nopen == t->cap) {
		while (!t->open[t->low])
			t->low++;
		if (put_block(w, t, t->low, err))
			return -1;
	}
	if (!(t->open[k] = calloc(1, w->blksz)))
		return ff_err_set(err, ENOMEM, "inline tails: out of memory");
	t->nopen++;
	if (k < t->low)
		t->low = k;
	return 0;
}

int ew_tail_put(struct ew *w, struct ew_ino *e, const uint8_t *b, struct ff_err *err)
{
	struct ew_tails *t = w->tails;
	uint64_t pos = tail_pos(e);
	uint32_t k = (uint32_t)(pos >> w->blkbits);

	e->tail_out = 1;
	if (!t || k >= t->nblk || !t->pending[k])
		return ff_outfile_pwrite(&w->out, b, e->inline_len, pos, err);
	if (!t->open[k] && open_block(w, t, k, err))
		return -1;
	memcpy(t->open[k] + (pos & (w->blksz - 1)), b, e->inline_len);
	return --t->pending[k] ? 0 : put_block(w, t, k, err);
}

/* The data pass is over: what is gathered still is written (with err
 * NULL after a failure: only freed). */
int ew_tails_done(struct ew *w, struct ff_err *err)
{
	struct ew_tails *t = w->tails;
	int r = 0;

	for (uint32_t k = 0; t && k < t->nblk; k++) {
		if (t->open[k] && err && !r)
			r = put_block(w, t, k, err);
		free(t->open[k]);
		t->open[k] = NULL;
	}
	if (t) {
		free(t->pending);
		free(t->open);
		free(t);
	}
	w->tails = NULL;
	return r;
}
