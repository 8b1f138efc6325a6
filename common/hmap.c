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
/* (id + 1) << 4 | the hash's low 4 bits; 0 is an empty slot.  The slot
 * a hash starts at comes from its high bits (hset_home), so the low ones
 * kept here tell apart most of the ids a probe passes. */
struct ff_hset_slot {
	uint32_t v;
};

#define HSET_BITS 4u
#define HSET_MASK ((1u << HSET_BITS) - 1)

/* hash * cap / 2^32: any capacity, the hash's high bits used. */
static size_t hset_home(size_t cap, uint32_t hash)
{
	return (size_t)(((uint64_t)hash * cap) >> 32);
}

static void hset_place(struct ff_hset_slot *slots, size_t cap, uint32_t hash, uint32_t id)
{
	size_t i = hset_home(cap, hash);

	while (slots[i].v)
		i = i + 1 == cap ? 0 : i + 1;
	slots[i].v = (id + 1) << HSET_BITS | (hash & HSET_MASK);
}

/* Places again what is stored, under the hashes rehash gives.  A set
 * filled by ff_hset_add_next holds ids 0..n-1, which are rehashed in that
 * order: the caller's keys are then read in the order it stored them, not
 * in the slots' (random) order, where at ten million tar members each
 * rehash missed the caches twice (a sixth of the build's time). */
static void hset_replace(const struct ff_hset *s, struct ff_hset_slot *slots, size_t cap,
			 ff_hset_hash_fn rehash, void *ctx)
{
	if (s->dense) {
		for (uint32_t id = 0; id < s->n; id++)
			hset_place(slots, cap, rehash(ctx, id), id);
		return;
	}
	for (size_t i = 0; i < s->cap; i++) {
		uint32_t id;

		if (!s->slots[i].v)
			continue;
		id = (s->slots[i].v >> HSET_BITS) - 1;
		hset_place(slots, cap, rehash(ctx, id), id);
	}
}

/* Capacity for n at a load of at most 3/4. */
static int hset_resize(struct ff_hset *s, size_t n, ff_hset_hash_fn rehash, void *ctx)
{
	size_t cap = n + n / 3 + 8;
	struct ff_hset_slot *slots;

	if (cap <= s->cap)
		return 0;
	if (s->n && !rehash)
		return -1;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -1;
	if (s->n)
		hset_replace(s, slots, cap, rehash, ctx);
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
	return 0;
}

int ff_hset_reserve(struct ff_hset *s, size_t n)
{
	return s->n ? -1 : hset_resize(s, n, NULL, NULL);
}

int ff_hset_add(struct ff_hset *s, uint32_t hash, uint32_t id, ff_hset_hash_fn rehash, void *ctx)
{
	if (id > FF_HSET_ID_MAX || (s->dense && id != s->n))
		return -1;
	if ((s->n + 1) * 4 > s->cap * 3 && hset_resize(s, 2 * (s->n + 1), rehash, ctx) < 0)
		return -1;
	hset_place(s->slots, s->cap, hash, id);
	s->n++;
	return 0;
}

int ff_hset_find(const struct ff_hset *s, uint32_t hash, ff_hset_match_fn match, void *ctx,
		 uint32_t *id)
{
	if (!s->cap)
		return 0;
	for (size_t i = hset_home(s->cap, hash); s->slots[i].v; i = i + 1 == s->cap ? 0 : i + 1) {
		uint32_t v = s->slots[i].v;
		int r;

		if ((v & HSET_MASK) != (hash & HSET_MASK))
			continue;
		r = match(ctx, (v >> HSET_BITS) - 1);
		if (r < 0)
			return -1;
		if (r) {
			*id = (v >> HSET_BITS) - 1;
			return 1;
		}
	}
	return 0;
}

int ff_hset_add_next(struct ff_hset *s, uint32_t hash, ff_hset_hash_fn rehash, void *ctx)
{
	if (!s->n)
		s->dense = 1;
	return s->dense ? ff_hset_add(s, hash, (uint32_t)s->n, rehash, ctx) : -1;
}

void ff_hset_free(struct ff_hset *s)
{
	free(s->slots);
	*s = (struct ff_hset){0};
}
