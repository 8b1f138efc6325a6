/* Open addressing with linear probing; a NULL value marks an empty slot. */
#include "common/hmap.h"

#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	return (size_t)(key >> 17) & (cap - 1);
}

void *ff_hmap_get(const struct ff_hmap *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static void insert(uint64_t *keys, void **vals, size_t cap, uint64_t key, void *val)
{
	size_t i = slot_of(key, cap);

	while (vals[i] && keys[i] != key)
		i = (i + 1) & (cap - 1);
	keys[i] = key;
	vals[i] = val;
}

static int grow(struct ff_hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->vals[i])
			insert(keys, vals, cap, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int ff_hmap_put(struct ff_hmap *m, uint64_t key, void *val)
{
	if ((m->n + 1) * 2 > m->cap && grow(m) < 0)
		return -1;
	if (!ff_hmap_get(m, key))
		m->n++;
	insert(m->keys, m->vals, m->cap, key, val);
	return 0;
}

void ff_hmap_free(struct ff_hmap *m, void (*free_val)(void *))
{
	size_t i;

	for (i = 0; free_val && i < m->cap; i++)
		if (m->vals[i])
			free_val(m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = (struct ff_hmap){0};
}
