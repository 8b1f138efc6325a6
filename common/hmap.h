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

#endif
