/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The buffers of one cache, carved from 2 MiB chunks and recycled.
 *
 * Why: a cache that fills with freshly malloc()ed blocks touches every
 * page of its budget for the first time, one page fault each.  On this
 * project's machines (virtual, where a fault traps to the hypervisor) a
 * cold whole-tree read of a 200 MB image through `flashfs mount` took
 * 16,000 faults and 0.25 s of the daemon's 0.8 s of CPU for a 64 MiB
 * cache.  A chunk is made present with one MADV_POPULATE_WRITE call (Linux
 * 5.14; older kernels fault it in as before) and may be backed by huge
 * pages; a released buffer goes back on the free list instead of to
 * malloc, so the memory touched stays what the cache holds plus the
 * buffers in use, and is returned when the cache is freed. */
#include "squashfs/cache_slab.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common/vec.h"

#define CHUNK (2u << 20)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

struct sqfs_slab {
	pthread_mutex_t lock;
	size_t slot;             /* bytes of data per buffer */
	struct sqfs_cbuf *free;  /* released buffers, linked through next */
	struct ff_vec chunks;    /* struct chunk */
	uint8_t *cur;            /* the rest of the newest chunk */
	size_t left;
};

struct chunk {
	void *at;
	size_t len;
};

struct sqfs_slab *sqfs_slab_new(size_t slot)
{
	struct sqfs_slab *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->lock, NULL);
	s->slot = (slot + 63) & ~(size_t)63;
	ff_vec_init(&s->chunks, sizeof(struct chunk));
	return s;
}

/* A new chunk, aligned so the kernel can back it with huge pages. */
static int grow(struct sqfs_slab *s)
{
	size_t len = s->slot > CHUNK ? (s->slot + CHUNK - 1) / CHUNK * CHUNK : CHUNK;
	uint8_t *m = mmap(NULL, len + CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	struct chunk c;
	uintptr_t at;

	if (m == MAP_FAILED)
		return -1;
	at = ((uintptr_t)m + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1);
	if (at > (uintptr_t)m)
		munmap(m, at - (uintptr_t)m);
	munmap((uint8_t *)at + len, (uintptr_t)m + CHUNK - at);
	c.at = (void *)at;
	c.len = len;
	if (ff_vec_push(&s->chunks, &c) < 0) {
		munmap(c.at, len);
		return -1;
	}
	/* Both are hints: without them the pages fault in one by one. */
	(void)madvise(c.at, len, MADV_HUGEPAGE);
	(void)madvise(c.at, len, MADV_POPULATE_WRITE);
	s->cur = c.at;
	s->left = len;
	return 0;
}

static struct sqfs_cbuf *carve(struct sqfs_slab *s)
{
	struct sqfs_cbuf *b;

	if (s->left < s->slot && grow(s) < 0)
		return NULL;
	b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	b->data = s->cur;
	b->home = s;
	b->cap = s->slot;
	s->cur += s->slot;
	s->left -= s->slot;
	return b;
}

struct sqfs_cbuf *sqfs_slab_take(struct sqfs_slab *s)
{
	struct sqfs_cbuf *b;

	pthread_mutex_lock(&s->lock);
	b = s->free;
	if (b)
		s->free = b->next;
	else
		b = carve(s);
	pthread_mutex_unlock(&s->lock);
	return b;
}

void sqfs_slab_give(struct sqfs_slab *s, struct sqfs_cbuf *b)
{
	pthread_mutex_lock(&s->lock);
	b->next = s->free;
	s->free = b;
	pthread_mutex_unlock(&s->lock);
}

void sqfs_slab_free(struct sqfs_slab *s)
{
	struct sqfs_cbuf *b, *n;
	size_t i;

	if (!s)
		return;
	for (b = s->free; b; b = n) {
		n = b->next;
		free(b);
	}
	for (i = 0; i < s->chunks.len; i++) {
		const struct chunk *c = FF_VEC_AT(&s->chunks, struct chunk, i);

		munmap(c->at, c->len);
	}
	ff_vec_free(&s->chunks);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
