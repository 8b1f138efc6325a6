/* A small hash map from 64-bit handles to pointers, for the commands'
 * visited-directory sets and hard-link tables.  Not thread-safe. */
#ifndef FF_COMMON_HMAP_H
#define FF_COMMON_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct ff_hmap {
	uint64_t *keys;
	void **vals;
	size_t cap, n;
};

/* The value for key, or NULL. */
void *ff_hmap_get(const struct ff_hmap *m, uint64_t key);
/* Sets key (val must not be NULL); -1 when out of memory. */
int ff_hmap_put(struct ff_hmap *m, uint64_t key, void *val);
/* Frees the table, and each value with free_val when it is not NULL. */
void ff_hmap_free(struct ff_hmap *m, void (*free_val)(void *));

#endif
