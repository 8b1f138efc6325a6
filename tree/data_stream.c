/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File contents read ahead on a helper thread, in tree order.  A builder
 * that only formats and writes (mkfs.yaffs2) spends as much time copying
 * file data out of the page cache as it does copying pages into the image;
 * with the reads on a second core the two copies overlap.  The pieces come
 * back in the order the builder would have read them itself, so the image
 * does not depend on the thread, and a read error reaches the builder at
 * the piece where it happened, with the message ff_data_pread gives.
 *
 * Most files in a rootfs are a few KiB, so the helper packs the pieces of
 * many files into one slot and the two threads meet once per slot, not
 * once per file. */
#include "tree/data_stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"

#define SLOTS 3
#define SLOT_PIECES 4     /* a slot holds at least this many full pieces */
#define PIECES_MAX 512    /* and at most this many pieces */

struct slot {
	uint8_t *buf;
	size_t used;
	struct ff_data_piece pieces[PIECES_MAX];
	unsigned n, next;   /* pieces filled; the next one to hand out */
	int failed;         /* after its pieces, the slot ends with err */
	struct ff_err err;
};

struct ff_data_stream {
	const struct ff_tree *tree;
	int (*want)(const struct ff_node *n);
	size_t piece_bytes;
	struct slot slots[SLOTS];
	struct slot *fill;    /* the helper's slot */
	struct slot *drain;   /* the builder's slot */

	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct ff_pool *helper; /* the background task running helper() */
	uint64_t filled;      /* slots published by the helper */
	uint64_t taken;       /* slots the builder has finished with */
	int done;             /* the helper publishes nothing more */
	int stop;
};

/* Publishes the helper's slot (unless empty) and waits for a free one;
 * NULL when told to stop. */
static struct slot *next_slot(struct ff_data_stream *s, int last)
{
	struct slot *sl = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->fill && (s->fill->n || s->fill->failed))
		s->filled++;
	s->done = last;
	pthread_cond_broadcast(&s->wake);
	while (!last && !s->stop && s->filled - s->taken == SLOTS)
		pthread_cond_wait(&s->wake, &s->lock);
	if (!last && !s->stop)
		sl = &s->slots[s->filled % SLOTS];
	pthread_mutex_unlock(&s->lock);
	if (sl)
		sl->used = sl->n = sl->next = 0, sl->failed = 0;
	return sl;
}

/* Room for a piece of `len` bytes in the helper's slot, moving on to the
 * next slot when needed; NULL when told to stop. */
static uint8_t *room(struct ff_data_stream *s, size_t len)
{
	struct slot *sl = s->fill;

	if (sl->n == PIECES_MAX || sl->used + len > s->piece_bytes * SLOT_PIECES) {
		sl = s->fill = next_slot(s, 0);
		if (!sl)
			return NULL;
	}
	return sl->buf + sl->used;
}

/* Reads one file into slots; -1 after its error is in the slot. */
static int read_file(struct ff_data_stream *s, const struct ff_node *n)
{
	struct ff_data *d = ff_tree_open_data(s->tree, n, &s->fill->err);
	uint64_t off = 0;

	while (d && off < n->size) {
		size_t len = n->size - off < s->piece_bytes ? (size_t)(n->size - off)
							    : s->piece_bytes;
		uint8_t *buf = room(s, len);
		struct slot *sl = s->fill;

		if (!buf || ff_data_pread(d, buf, len, off, &sl->err) < 0)
			break;
		sl->pieces[sl->n++] = (struct ff_data_piece){ n, off, buf, len };
		sl->used += len;
		off += len;
	}
	ff_data_close(d);
	if (off == n->size)
		return 0;
	if (s->fill)
		s->fill->failed = 1;
	return -1;
}

static void helper(void *arg, void *job, unsigned worker)
{
	struct ff_data_stream *s = arg;
	const struct ff_node *n = ff_tree_root(s->tree);

	(void)job;
	(void)worker;
	s->fill = next_slot(s, 0);
	for (; n && s->fill; n = ff_tree_next(s->tree, n))
		if (s->want(n) && n->size && read_file(s, n))
			break;
	if (s->fill)
		next_slot(s, 1);
}

struct ff_data_stream *ff_data_stream_new(const struct ff_tree *tree,
					  int (*want)(const struct ff_node *n),
					  size_t piece_bytes, struct ff_err *err)
{
	struct ff_data_stream *s = calloc(1, sizeof(*s));
	uint8_t *bufs = s ? malloc(piece_bytes * SLOT_PIECES * SLOTS) : NULL;

	if (!bufs) {
		free(s);
		ff_err_set(err, ENOMEM, "out of memory for file read-ahead");
		return NULL;
	}
	s->tree = tree;
	s->want = want;
	s->piece_bytes = piece_bytes;
	for (unsigned i = 0; i < SLOTS; i++)
		s->slots[i].buf = bufs + piece_bytes * SLOT_PIECES * i;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->wake, NULL);
	s->helper = ff_pool_task(helper, s, err);
	if (!s->helper) {
		ff_err_prefix(err, "file read-ahead");
		ff_data_stream_free(s);
		return NULL;
	}
	return s;
}

/* The builder's next slot with something in it, or NULL at the end. */
static struct slot *drain_slot(struct ff_data_stream *s)
{
	struct slot *sl = NULL;

	pthread_mutex_lock(&s->lock);
	if (s->drain) {
		s->taken++;
		pthread_cond_broadcast(&s->wake);
	}
	while (s->filled == s->taken && !s->done)
		pthread_cond_wait(&s->wake, &s->lock);
	if (s->filled != s->taken)
		sl = &s->slots[s->taken % SLOTS];
	s->drain = sl;
	pthread_mutex_unlock(&s->lock);
	return sl;
}

int ff_data_stream_next(struct ff_data_stream *s, const struct ff_node *n,
			struct ff_data_piece *p, struct ff_err *err)
{
	struct slot *sl = s->drain;

	if (!sl || (sl->next == sl->n && !sl->failed))
		sl = drain_slot(s);
	if (sl && sl->next == sl->n && sl->failed) {
		*err = sl->err;
		return -1;
	}
	if (!sl || sl->pieces[sl->next].node != n)
		return ff_err_set(err, EPROTO, "file read-ahead out of step with the tree walk");
	*p = sl->pieces[sl->next++];
	return 0;
}

void ff_data_stream_free(struct ff_data_stream *s)
{
	if (!s)
		return;
	ff_pool_stop(s->helper, &s->lock, &s->wake, &s->stop);
	free(s->slots[0].buf);
	free(s);
}
