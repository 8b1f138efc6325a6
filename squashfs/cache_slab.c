/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The buffers of one cache, carved from one mapping and recycled.
 *
 * Why: a cache that fills with freshly malloc()ed blocks touches every
 * page of its budget for the first time, one page fault each.  On this
 * project's machines (virtual, where a fault traps to the hypervisor) a
 * cold whole-tree read of a 200 MB image through `flashfs mount` took
 * 16,000 faults and 0.25 s of the daemon's 0.8 s of CPU for a 64 MiB
 * cache.  The slab maps room for the cache's budget and a half once
 * (address space only) and makes it present a step at a time with one
 * MADV_POPULATE_WRITE call (Linux 5.14; older kernels fault it in as
 * before), the steps doubling from two buffers to 2 MiB, so a reader
 * opened for a few reads (a scan, a fuzz input) does not make megabytes
 * present.  A released buffer goes back on the free list instead of to
 * malloc, so the memory touched stays what the cache holds plus the
 * buffers in use; it is unmapped when the cache is freed, in one call
 * (a munmap per block was what common/malloc_tune.c removed). */
#include "squashfs/cache_slab.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "common/vec.h"

#define STEP_MAX (2u << 20)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

struct sqfs_slab {
	pthread_mutex_t lock;
	size_t slot;             /* bytes of data per buffer */
	size_t reserve;          /* bytes mapped at a time */
	struct sqfs_cbuf *free;  /* released buffers, linked through next */
	struct ff_vec maps;      /* struct map: every mapping, for the end */
	uint8_t *cur;            /* the next buffer to carve */
	uint8_t *ready;          /* the end of the part made present */
	uint8_t *end;            /* the end of the newest mapping */
	size_t step;             /* bytes made present next */
};

struct map {
	void *at;
	size_t len;
};

struct sqfs_slab *sqfs_slab_new(size_t slot, size_t reserve)
{
	struct sqfs_slab *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	pthread_mutex_init(&s->lock, NULL);
	s->slot = (slot + 63) & ~(size_t)63;
	if (reserve < 16 * s->slot)
		reserve = 16 * s->slot;
	s->reserve = (reserve + s->slot - 1) / s->slot * s->slot;
	s->step = 2 * s->slot;
	ff_vec_init(&s->maps, sizeof(struct map));
	return s;
}

/* A new mapping of `reserve` bytes: address space, nothing present yet. */
static int map_more(struct sqfs_slab *s)
{
	struct map m = {NULL, s->reserve};

	m.at = mmap(NULL, m.len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m.at == MAP_FAILED)
		return -1;
	if (ff_vec_push(&s->maps, &m) < 0) {
		munmap(m.at, m.len);
		return -1;
	}
	(void)madvise(m.at, m.len, MADV_HUGEPAGE); /* a hint */
	s->cur = s->ready = m.at;
	s->end = s->cur + m.len;
	return 0;
}

/* Makes the next step of the mapping present (a new mapping when this
 * one is used up). */
static int make_present(struct sqfs_slab *s)
{
	size_t n;

	if ((size_t)(s->end - s->cur) < s->slot && map_more(s) < 0)
		return -1;
	n = s->step < (size_t)(s->end - s->ready) ? s->step : (size_t)(s->end - s->ready);
	n = n / s->slot * s->slot;
	(void)madvise(s->ready, n, MADV_POPULATE_WRITE); /* without it: faults */
	s->ready += n;
	if (s->step < STEP_MAX)
		s->step *= 2;
	return 0;
}

static struct sqfs_cbuf *carve(struct sqfs_slab *s)
{
	struct sqfs_cbuf *b;

	if ((size_t)(s->ready - s->cur) < s->slot && make_present(s) < 0)
		return NULL;
	b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	b->data = s->cur;
	b->home = s;
	b->cap = s->slot;
	s->cur += s->slot;
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
	for (i = 0; i < s->maps.len; i++) {
		const struct map *m = FF_VEC_AT(&s->maps, struct map, i);

		munmap(m->at, m->len);
	}
	ff_vec_free(&s->maps);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
