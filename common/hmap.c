/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/hmap.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define INLINE_KEY 16

struct ff_hmap_slot {
	uint64_t val;
	uint32_t hash;
	uint32_t len;
	int used;
	union {
		uint8_t in[INLINE_KEY];
		uint8_t *out;
	} key;
};

static const uint8_t *key_of(const struct ff_hmap_slot *s)
{
	return s->len > INLINE_KEY ? s->key.out : s->key.in;
}

static uint32_t hash_of(const void *key, size_t len)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), key, (uInt)len);
}

/* The slot holding key, or the empty slot where it would go. */
static struct ff_hmap_slot *probe(const struct ff_hmap *m, const void *key, size_t len,
				  uint32_t h)
{
	size_t i = h & (m->cap - 1);

	for (; m->slots[i].used; i = (i + 1) & (m->cap - 1)) {
		const struct ff_hmap_slot *s = &m->slots[i];

		if (s->hash == h && s->len == len && !memcmp(key_of(s), key, len))
			break;
	}
	return &m->slots[i];
}

int ff_hmap_find(const struct ff_hmap *m, const void *key, size_t len, uint64_t *val)
{
	const struct ff_hmap_slot *s;

	if (!m->cap)
		return 0;
	s = probe(m, key, len, hash_of(key, len));
	if (!s->used)
		return 0;
	if (val)
		*val = s->val;
	return 1;
}

static int grow(struct ff_hmap *m)
{
	struct ff_hmap bigger = {NULL, m->cap ? m->cap * 2 : 64, m->n};

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].used)
			*probe(&bigger, key_of(&m->slots[i]), m->slots[i].len, m->slots[i].hash) =
				m->slots[i];
	free(m->slots);
	*m = bigger;
	return 0;
}

int ff_hmap_set(struct ff_hmap *m, const void *key, size_t len, uint64_t val)
{
	uint32_t h = hash_of(key, len);
	struct ff_hmap_slot *s;

	if ((m->n + 1) * 4 > m->cap * 3 && grow(m) < 0)
		return -1;
	s = probe(m, key, len, h);
	if (!s->used) {
		if (len > INLINE_KEY && !(s->key.out = malloc(len)))
			return -1;
		memcpy(len > INLINE_KEY ? s->key.out : s->key.in, key, len);
		s->hash = h;
		s->len = (uint32_t)len;
		s->used = 1;
		m->n++;
	}
	s->val = val;
	return 0;
}

void ff_hmap_clear(struct ff_hmap *m, void (*free_val)(uint64_t val))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->slots[i].used)
			continue;
		if (free_val)
			free_val(m->slots[i].val);
		if (m->slots[i].len > INLINE_KEY)
			free(m->slots[i].key.out);
	}
	free(m->slots);
	*m = (struct ff_hmap){0};
}

void *ff_hmap_get(const struct ff_hmap *m, uint64_t key)
{
	uint64_t v;

	return ff_hmap_find(m, &key, sizeof(key), &v) ? (void *)(uintptr_t)v : NULL;
}

int ff_hmap_put(struct ff_hmap *m, uint64_t key, void *val)
{
	return ff_hmap_set(m, &key, sizeof(key), (uint64_t)(uintptr_t)val);
}

void ff_hmap_free(struct ff_hmap *m, void (*free_val)(void *))
{
	for (size_t i = 0; free_val && i < m->cap; i++)
		if (m->slots[i].used)
			free_val((void *)(uintptr_t)m->slots[i].val);
	ff_hmap_clear(m, NULL);
}

/* ---- the compact set ---- */
struct ff_hset_slot {
	uint32_t id1;  /* id + 1; 0 is an empty slot */
	uint32_t hash;
};

/* hash * cap / 2^32: any capacity, all of the hash's bits used. */
static size_t hset_home(const struct ff_hset *s, uint32_t hash)
{
	return (size_t)(((uint64_t)hash * s->cap) >> 32);
}

static void hset_place(struct ff_hset *s, struct ff_hset_slot v)
{
	size_t i = hset_home(s, v.hash);

	while (s->slots[i].id1)
		i = i + 1 == s->cap ? 0 : i + 1;
	s->slots[i] = v;
}

/* Capacity for n at a load of at most 3/4; rehashes what is stored. */
static int hset_resize(struct ff_hset *s, size_t n)
{
	struct ff_hset bigger = { NULL, n + n / 3 + 8, s->n };

	if (bigger.cap <= s->cap)
		return 0;
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].id1)
			hset_place(&bigger, s->slots[i]);
	free(s->slots);
	*s = bigger;
	return 0;
}

int ff_hset_reserve(struct ff_hset *s, size_t n)
{
	return hset_resize(s, n);
}

int ff_hset_add(struct ff_hset *s, uint32_t hash, uint32_t id)
{
	if ((s->n + 1) * 4 > s->cap * 3 && hset_resize(s, 2 * (s->n + 1)) < 0)
		return -1;
	hset_place(s, (struct ff_hset_slot){ id + 1, hash });
	s->n++;
	return 0;
}

int ff_hset_find(const struct ff_hset *s, uint32_t hash, ff_hset_match_fn match, void *ctx,
		 uint32_t *id)
{
	if (!s->cap)
		return 0;
	for (size_t i = hset_home(s, hash); s->slots[i].id1; i = i + 1 == s->cap ? 0 : i + 1) {
		int r;

		if (s->slots[i].hash != hash)
			continue;
		r = match(ctx, s->slots[i].id1 - 1);
		if (r < 0)
			return -1;
		if (r) {
			*id = s->slots[i].id1 - 1;
			return 1;
		}
	}
	return 0;
}

void ff_hset_free(struct ff_hset *s)
{
	free(s->slots);
	*s = (struct ff_hset){0};
}
