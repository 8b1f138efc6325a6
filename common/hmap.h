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

/* The compact face, for ten million entries: a set of 32-bit ids, each
 * slot 4 bytes, the id and 4 bits of the caller's 32-bit hash (the map's
 * slot is 40; 8 with the whole hash was 11 bytes an entry at its load,
 * 100 MiB at ten million, issue 33).  The caller keeps the keys: several
 * ids may share a slot's hash bits, and ff_hset_find asks `match` about
 * each id stored with the bits sought, so match must compare keys, not
 * hashes.  The rest of the hash chooses the slot; to grow, the set asks
 * the caller for each id's hash again (ff_hset_hash_fn).  Any capacity,
 * not only powers of two, so ff_hset_reserve can size it to the count at
 * a load of 3/4.  A zeroed struct is an empty set. */
struct ff_hset_slot;

struct ff_hset {
	struct ff_hset_slot *slots;
	size_t cap, n;
	int dense; /* filled by ff_hset_add_next: it holds ids 0..n-1 */
};

/* The largest id a set holds: 28 bits of the slot are id + 1. */
#define FF_HSET_ID_MAX ((uint32_t)((1u << 28) - 2))

/* 1: id is the one sought; 0: it is not; -1: an error, returned as is. */
typedef int (*ff_hset_match_fn)(void *ctx, uint32_t id);
/* The hash id was added with. */
typedef uint32_t (*ff_hset_hash_fn)(void *ctx, uint32_t id);

/* Room for n ids in all without growing, in an empty set; -1 when out of
 * memory or the set is not empty. */
int ff_hset_reserve(struct ff_hset *s, size_t n);
/* Adds id (at most FF_HSET_ID_MAX; not checked for being there already).
 * Past a load of 3/4 the set grows, asking rehash(ctx, id) for every id
 * it holds; with rehash NULL it does not (-1).  -1 when out of memory or
 * id is above FF_HSET_ID_MAX. */
int ff_hset_add(struct ff_hset *s, uint32_t hash, uint32_t id, ff_hset_hash_fn rehash, void *ctx);
/* ff_hset_add of id n, the set's count, for a set that only this fills
 * (-1 for one ff_hset_add filled): it then holds the ids 0..n-1, and to
 * grow it asks rehash for them in that order, reading the caller's keys
 * in the order they were stored. */
int ff_hset_add_next(struct ff_hset *s, uint32_t hash, ff_hset_hash_fn rehash, void *ctx);
/* 1 and *id for the first stored id with this hash's slot and bits that
 * match accepts, 0 when none does, -1 when match returned -1. */
int ff_hset_find(const struct ff_hset *s, uint32_t hash, ff_hset_match_fn match, void *ctx,
		 uint32_t *id);
void ff_hset_free(struct ff_hset *s);

#endif
