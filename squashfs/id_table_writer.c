/* The id table: every distinct uid and gid once, in order of first use
 * (tree order, uid before gid), so inodes store 16-bit indexes.  SquashFS
 * has room for 65536 ids; the 65537th is refused by name. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"

static int add_id(struct sqfs_writer *w, const struct ff_node *n, uint32_t id,
		  struct ff_err *err)
{
	struct sqfs_id_table *t = &w->ids;
	uint8_t key[4];
	uint64_t val;
	char path[4096];

	ff_put_le32(key, id);
	if (ff_hmap_find(&t->map, key, 4, &val))
		return 0;
	if (t->count == SQFS_MAX_IDS)
		return ff_err_set(err, EOVERFLOW,
				  "%s: id %u would be distinct id number %u (SquashFS holds at most %u)",
				  sqfs_node_name(n, path, sizeof(path)), id, t->count + 1,
				  SQFS_MAX_IDS);
	if (t->count == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 64;
		uint32_t *p = realloc(t->ids, cap * sizeof(*p));

		if (!p)
			return ff_err_set(err, ENOMEM, "id table: out of memory");
		t->ids = p;
		t->cap = cap;
	}
	if (ff_hmap_set(&t->map, key, 4, t->count) < 0)
		return ff_err_set(err, ENOMEM, "id table: out of memory");
	t->ids[t->count++] = id;
	return 0;
}

int sqfs_ids_collect(struct sqfs_writer *w, struct ff_err *err)
{
	for (struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		if (n->link)
			continue;
		if (add_id(w, n, n->uid, err) < 0 || add_id(w, n, n->gid, err) < 0)
			return -1;
	}
	w->st->n_ids = w->ids.count;
	return 0;
}

uint16_t sqfs_id_index(const struct sqfs_writer *w, uint32_t id)
{
	uint8_t key[4];
	uint64_t val = 0;

	ff_put_le32(key, id);
	ff_hmap_find(&w->ids.map, key, 4, &val);
	return (uint16_t)val;
}

int sqfs_ids_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err)
{
	uint8_t *buf = malloc((size_t)w->ids.count * 4 + 1);
	uint64_t start = w->sink.pos;
	int ret;

	if (!buf)
		return ff_err_set(err, ENOMEM, "id table: out of memory");
	for (uint32_t i = 0; i < w->ids.count; i++)
		ff_put_le32(buf + 4 * i, w->ids.ids[i]);
	ret = sqfs_table_write(&w->sink,
			       sqfs_meta_ctx(w, w->o->raw_inodes || w->o->raw_ids), buf, (size_t)w->ids.count * 4, NULL, 0, pos,
			       err);
	w->st->id_table_bytes = w->sink.pos - start;
	free(buf);
	return ret;
}

void sqfs_ids_free(struct sqfs_id_table *t)
{
	ff_hmap_clear(&t->map, NULL);
	free(t->ids);
	memset(t, 0, sizeof(*t));
}
