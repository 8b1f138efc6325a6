/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Sharded LRU: a shard is a hash chain table plus an LRU list under one
 * mutex.  The cache itself holds one reference on each resident buffer. */
#include "squashfs/cache.h"
#include "squashfs/cache_slab.h"

#include <pthread.h>
#include <stdlib.h>

#define SHARDS 16
#define BUCKETS 512
/* Fewer entries per shard than this and one hot shard evicts blocks that
 * are still wanted while the others sit idle. */
#define MIN_PER_SHARD 8

struct shard {
	pthread_mutex_t lock;
	struct sqfs_cbuf *bucket[BUCKETS];
	struct sqfs_cbuf *head, *tail; /* most / least recently used */
	size_t bytes;
};

struct sqfs_cache {
	size_t entry;
	struct sqfs_slab *slab; /* entry-sized buffers; NULL: malloc */
	size_t shard_budget;
	unsigned nshards;
	struct shard shard[SHARDS];
};

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

struct sqfs_cache *sqfs_cache_new(size_t budget, size_t entry)
{
	struct sqfs_cache *c = calloc(1, sizeof(*c));
	size_t per = entry ? entry * MIN_PER_SHARD : 1;
	int i;

	if (!c)
		return NULL;
	c->nshards = budget / per >= SHARDS ? SHARDS : budget / per ? (unsigned)(budget / per) : 1;
	c->shard_budget = budget / c->nshards;
	c->entry = entry;
	/* Page-sized and larger entries only: the small ones (block lists)
	 * vary in size and would waste most of a slot. */
	if (entry >= 4096)
		c->slab = sqfs_slab_new(entry, budget + budget / 2); /* NULL: malloc */
	for (i = 0; i < SHARDS; i++)
		pthread_mutex_init(&c->shard[i].lock, NULL);
	return c;
}

void sqfs_cache_free(struct sqfs_cache *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < SHARDS; i++) {
		struct sqfs_cbuf *b = c->shard[i].head, *n;

		for (; b; b = n) {
			n = b->next;
			sqfs_cbuf_release(b);
		}
		pthread_mutex_destroy(&c->shard[i].lock);
	}
	sqfs_slab_free(c->slab);
	free(c);
}

static struct sqfs_cbuf *fresh(struct sqfs_cbuf *b)
{
	if (!b)
		return NULL;
	atomic_init(&b->refs, 1);
	b->key = 0;
	b->len = 0;
	b->aux = 0;
	b->hnext = b->prev = b->next = NULL;
	return b;
}

struct sqfs_cbuf *sqfs_cbuf_alloc(size_t cap)
{
	struct sqfs_cbuf *b = malloc(sizeof(*b) + cap);

	if (!b)
		return NULL;
	b->data = (uint8_t *)(b + 1);
	b->cap = cap;
	b->home = NULL;
	return fresh(b);
}

struct sqfs_cbuf *sqfs_cache_alloc(struct sqfs_cache *c, size_t cap)
{
	if (c->slab && cap == c->entry)
		return fresh(sqfs_slab_take(c->slab));
	return sqfs_cbuf_alloc(cap);
}

void sqfs_cbuf_release(struct sqfs_cbuf *b)
{
	if (!b || atomic_fetch_sub(&b->refs, 1) != 1)
		return;
	if (b->home)
		sqfs_slab_give(b->home, b);
	else
		free(b);
}

static void lru_unlink(struct shard *s, struct sqfs_cbuf *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		s->head = b->next;
	if (b->next)
		b->next->prev = b->prev;
	else
		s->tail = b->prev;
	b->prev = b->next = NULL;
}

static void lru_push(struct shard *s, struct sqfs_cbuf *b)
{
	b->prev = NULL;
	b->next = s->head;
	if (s->head)
		s->head->prev = b;
	s->head = b;
	if (!s->tail)
		s->tail = b;
}

static struct sqfs_cbuf *find(struct shard *s, uint64_t key, size_t slot)
{
	struct sqfs_cbuf *b;

	for (b = s->bucket[slot]; b; b = b->hnext)
		if (b->key == key)
			return b;
	return NULL;
}

static void hash_remove(struct shard *s, struct sqfs_cbuf *b, size_t slot)
{
	struct sqfs_cbuf **pp = &s->bucket[slot];

	while (*pp && *pp != b)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = b->hnext;
	b->hnext = NULL;
}

static void evict(struct sqfs_cache *c, struct shard *s)
{
	while (s->bytes > c->shard_budget && s->tail) {
		struct sqfs_cbuf *b = s->tail;

		lru_unlink(s, b);
		hash_remove(s, b, (mix(b->key) / c->nshards) % BUCKETS);
		s->bytes -= b->cap;
		sqfs_cbuf_release(b);
	}
}

struct sqfs_cbuf *sqfs_cache_get(struct sqfs_cache *c, uint64_t key)
{
	uint64_t h = mix(key);
	struct shard *s = &c->shard[h % c->nshards];
	struct sqfs_cbuf *b;

	pthread_mutex_lock(&s->lock);
	b = find(s, key, (h / c->nshards) % BUCKETS);
	if (b) {
		atomic_fetch_add(&b->refs, 1);
		if (s->head != b) {
			lru_unlink(s, b);
			lru_push(s, b);
		}
	}
	pthread_mutex_unlock(&s->lock);
	return b;
}

struct sqfs_cbuf *sqfs_cache_put(struct sqfs_cache *c, uint64_t key, struct sqfs_cbuf *b)
{
	uint64_t h = mix(key);
	struct shard *s = &c->shard[h % c->nshards];
	size_t slot = (h / c->nshards) % BUCKETS;
	struct sqfs_cbuf *old;

	if (b->cap > c->shard_budget)
		return b; /* too big to keep: the caller just uses it once */
	pthread_mutex_lock(&s->lock);
	old = find(s, key, slot);
	if (old) {
		atomic_fetch_add(&old->refs, 1);
		pthread_mutex_unlock(&s->lock);
		sqfs_cbuf_release(b);
		return old;
	}
	b->key = key;
	b->hnext = s->bucket[slot];
	s->bucket[slot] = b;
	lru_push(s, b);
	s->bytes += b->cap;
	atomic_fetch_add(&b->refs, 1); /* the cache's own reference */
	evict(c, s);
	pthread_mutex_unlock(&s->lock);
	return b;
}
