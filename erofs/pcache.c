/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Decoded extents kept for the reads that follow: a file read in 4 KiB
 * or 128 KiB pieces decodes each pcluster once, not once per piece.  A
 * small array under one mutex, least recently used out first, within a
 * byte budget; lookups copy out under the lock, so an entry is never
 * freed while a reader uses it. */
#include <stdlib.h>
#include <string.h>

#include "erofs/reader.h"

#define PCACHE_MAX_ENTS 64

int er_pcache_init(struct er_pcache *c, size_t budget)
{
	memset(c, 0, sizeof(*c));
	c->budget = budget;
	c->cap = PCACHE_MAX_ENTS;
	c->ents = calloc(c->cap, sizeof(*c->ents));
	if (!c->ents)
		return -ENOMEM;
	if (pthread_mutex_init(&c->lock, NULL)) {
		free(c->ents);
		c->ents = NULL;
		return -ENOMEM;
	}
	return 0;
}

void er_pcache_free(struct er_pcache *c)
{
	if (!c->ents)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->ents[i].data);
	free(c->ents);
	c->ents = NULL;
	pthread_mutex_destroy(&c->lock);
}

int er_pcache_get(struct er_pcache *c, uint64_t nid, uint64_t la, void *buf, size_t off,
		  size_t len)
{
	int hit = 0;

	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++) {
		struct er_pcache_ent *e = &c->ents[i];

		if (e->nid == nid && e->la == la && off + len <= e->len) {
			memcpy(buf, e->data + off, len);
			e->used = ++c->clock;
			hit = 1;
			break;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

static void evict_one(struct er_pcache *c)
{
	size_t old = 0;

	for (size_t i = 1; i < c->n; i++)
		if (c->ents[i].used < c->ents[old].used)
			old = i;
	c->bytes -= c->ents[old].len;
	free(c->ents[old].data);
	c->ents[old] = c->ents[--c->n];
}

void er_pcache_put(struct er_pcache *c, uint64_t nid, uint64_t la, uint8_t *data, size_t len)
{
	if (len > c->budget) {
		free(data);
		return;
	}
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++) {
		if (c->ents[i].nid == nid && c->ents[i].la == la) {
			/* another thread decoded it meanwhile */
			pthread_mutex_unlock(&c->lock);
			free(data);
			return;
		}
	}
	while (c->n && (c->n == c->cap || c->bytes + len > c->budget))
		evict_one(c);
	c->ents[c->n++] = (struct er_pcache_ent){ nid, la, data, len, ++c->clock };
	c->bytes += len;
	pthread_mutex_unlock(&c->lock);
}
