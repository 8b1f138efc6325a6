/* A small open-addressing map from byte strings to a u64, for the writer's
 * dedup tables (ids, xattr sets and values).  Keys are copied; the hash is
 * zlib's crc32, so no hash function is hand-written here. */
#include "squashfs/writer_priv.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct hmap_entry {
	uint32_t hash;
	uint32_t len;
	uint64_t val;
	uint8_t *key;         /* NULL: empty slot */
};

struct sqfs_hmap {
	struct hmap_entry *slots;
	size_t cap, used;     /* cap is a power of two */
};

struct sqfs_hmap *sqfs_hmap_new(void)
{
	struct sqfs_hmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->cap = 64;
	m->slots = calloc(m->cap, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void sqfs_hmap_free(struct sqfs_hmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	free(m);
}

static uint32_t hash_of(const void *key, size_t len)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), key, (uInt)len);
}

static struct hmap_entry *find(const struct sqfs_hmap *m, const void *key, size_t len,
			       uint32_t h)
{
	size_t i = h & (m->cap - 1);

	while (m->slots[i].key) {
		struct hmap_entry *e = &m->slots[i];

		if (e->hash == h && e->len == len && !memcmp(e->key, key, len))
			return e;
		i = (i + 1) & (m->cap - 1);
	}
	return &m->slots[i];
}

int sqfs_hmap_get(const struct sqfs_hmap *m, const void *key, size_t len, uint64_t *val)
{
	struct hmap_entry *e = find(m, key, len, hash_of(key, len));

	if (!e->key)
		return 0;
	*val = e->val;
	return 1;
}

static int grow(struct sqfs_hmap *m)
{
	struct sqfs_hmap bigger = { calloc(m->cap * 2, sizeof(*m->slots)), m->cap * 2, m->used };

	if (!bigger.slots)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].key)
			*find(&bigger, m->slots[i].key, m->slots[i].len, m->slots[i].hash) =
				m->slots[i];
	free(m->slots);
	*m = bigger;
	return 0;
}

int sqfs_hmap_put(struct sqfs_hmap *m, const void *key, size_t len, uint64_t val)
{
	uint32_t h = hash_of(key, len);
	struct hmap_entry *e;

	if ((m->used + 1) * 4 > m->cap * 3 && grow(m) < 0)
		return -1;
	e = find(m, key, len, h);
	e->key = malloc(len ? len : 1);
	if (!e->key)
		return -1;
	memcpy(e->key, key, len);
	e->hash = h;
	e->len = (uint32_t)len;
	e->val = val;
	m->used++;
	return 0;
}
