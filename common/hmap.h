/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one hash map: byte-string keys (copied; up to 16 bytes kept in the
 * slot, longer ones on the heap) to 64-bit values, open addressing with
 * linear probing, hashed with zlib's crc32 (no hand-written hash).  A
 * zeroed struct is an empty map.  Not thread-safe.  Lookups only: nothing
 * iterates it in hash order, so no output depends on the hash. */
#ifndef FF_COMMON_HMAP_H
#define FF_COMMON_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct ff_hmap_slot;

struct ff_hmap {
	struct ff_hmap_slot *slots;
	size_t cap, n;
};

/* 1 and *val (val may be NULL) when key is in the map, else 0. */
int ff_hmap_find(const struct ff_hmap *m, const void *key, size_t len, uint64_t *val);
/* Adds key or replaces its value; -1 when out of memory. */
int ff_hmap_set(struct ff_hmap *m, const void *key, size_t len, uint64_t val);
/* Frees the map's memory (each value with free_val when not NULL); the
 * map is empty again. */
void ff_hmap_clear(struct ff_hmap *m, void (*free_val)(uint64_t val));

/* The same map keyed by a 64-bit handle with pointer values, for the
 * commands' visited-directory sets and hard-link tables. */
void *ff_hmap_get(const struct ff_hmap *m, uint64_t key);   /* NULL if absent */
int ff_hmap_put(struct ff_hmap *m, uint64_t key, void *val);
void ff_hmap_free(struct ff_hmap *m, void (*free_val)(void *));

/* The compact face, for a million entries: a set of 32-bit ids, each
 * slot only the id and the caller's 32-bit hash (8 bytes; the map's slot
 * is 40).  The caller keeps the keys: several ids may share a hash, and
 * ff_hset_find asks `match` about each id stored with the hash sought.
 * Any capacity, not only powers of two, so ff_hset_reserve can size it
 * to the count at a load of 3/4.  A zeroed struct is an empty set. */
struct ff_hset_slot;

struct ff_hset {
	struct ff_hset_slot *slots;
	size_t cap, n;
};

/* 1: id is the one sought; 0: it is not; -1: an error, returned as is. */
typedef int (*ff_hset_match_fn)(void *ctx, uint32_t id);

/* Room for n ids in all without growing; -1 when out of memory. */
int ff_hset_reserve(struct ff_hset *s, size_t n);
/* Adds id (up to UINT32_MAX - 1; not checked for being there already);
 * -1 when out of memory. */
int ff_hset_add(struct ff_hset *s, uint32_t hash, uint32_t id);
/* 1 and *id for the first stored id with this hash that match accepts,
 * 0 when none does, -1 when match returned -1. */
int ff_hset_find(const struct ff_hset *s, uint32_t hash, ff_hset_match_fn match, void *ctx,
		 uint32_t *id);
void ff_hset_free(struct ff_hset *s);

#endif
