/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Decoded blocks kept by image position: a direct-mapped table of fixed
 * slots, so memory is bounded whatever the image asks.  Readers copy out
 * under the lock; a miss is decoded outside it and put back. */
#include <stdlib.h>
#include <string.h>

#include "squashfs_legacy/legacy.h"

struct lsq_slot {
	uint64_t key, next;
	size_t len;
	int used;
	uint8_t *data;
};

struct lsq_cache {
	pthread_mutex_t lock;
	unsigned n;
	size_t bytes;
	struct lsq_slot *slots;
	uint8_t *mem;
};

struct lsq_cache *lsq_cache_new(unsigned slots, size_t slot_bytes)
{
	struct lsq_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->n = slots;
	c->bytes = slot_bytes;
	c->slots = calloc(slots, sizeof(*c->slots));
	c->mem = malloc((size_t)slots * slot_bytes);
	if (!c->slots || !c->mem) {
		free(c->slots);
		free(c->mem);
		free(c);
		return NULL;
	}
	for (unsigned i = 0; i < slots; i++)
		c->slots[i].data = c->mem + (size_t)i * slot_bytes;
	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void lsq_cache_free(struct lsq_cache *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c->slots);
	free(c->mem);
	free(c);
}

static struct lsq_slot *slot_of(struct lsq_cache *c, uint64_t key)
{
	/* Blocks lie at scattered positions; mixing the bits spreads them. */
	uint64_t h = key * 0x9e3779b97f4a7c15ull;

	return &c->slots[(h >> 32) % c->n];
}

ssize_t lsq_cache_get(struct lsq_cache *c, uint64_t key, void *out, size_t cap, uint64_t *next)
{
	ssize_t got = -1;
	struct lsq_slot *s;

	pthread_mutex_lock(&c->lock);
	s = slot_of(c, key);
	if (s->used && s->key == key && s->len <= cap) {
		memcpy(out, s->data, s->len);
		if (next)
			*next = s->next;
		got = (ssize_t)s->len;
	}
	pthread_mutex_unlock(&c->lock);
	return got;
}

void lsq_cache_put(struct lsq_cache *c, uint64_t key, const void *data, size_t len,
		   uint64_t next)
{
	struct lsq_slot *s;

	if (len > c->bytes)
		return;
	pthread_mutex_lock(&c->lock);
	s = slot_of(c, key);
	memcpy(s->data, data, len);
	s->key = key;
	s->len = len;
	s->next = next;
	s->used = 1;
	pthread_mutex_unlock(&c->lock);
}
