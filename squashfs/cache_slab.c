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
 * buffers in use, and is returned when the cache is freed.  The chunks
 * start at two buffers and double up to 2 MiB, so a reader opened for a
 * few reads (a scan, a fuzz input) does not make 2 MiB present. */
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
	size_t next;             /* buffers in the next chunk */
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
	s->next = 2;
	ff_vec_init(&s->chunks, sizeof(struct chunk));
	return s;
}

/* Maps len bytes; a full 2 MiB chunk aligned so that the kernel can back
 * it with a huge page. */
static void *map_chunk(size_t len)
{
	size_t extra = len % CHUNK ? 0 : CHUNK;
	uint8_t *m = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	uintptr_t at;

	if (m == MAP_FAILED)
		return NULL;
	if (!extra)
		return m;
	at = ((uintptr_t)m + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1);
	if (at > (uintptr_t)m)
		munmap(m, at - (uintptr_t)m);
	munmap((uint8_t *)at + len, (uintptr_t)m + CHUNK - at);
	return (void *)at;
}

static int grow(struct sqfs_slab *s)
{
	size_t len = s->slot * s->next;
	struct chunk c;

	if (len >= CHUNK)
		len = s->slot >= CHUNK ? s->slot : CHUNK / s->slot * s->slot;
	else
		s->next *= 2;
	c.at = map_chunk(len);
	if (!c.at)
		return -1;
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
