/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The id table: every distinct uid and gid once, in order of first use
 * (tree order, uid before gid), so inodes store 16-bit indexes.  SquashFS
 * has room for 65536 ids; the 65537th is refused by name. */
#include "squashfs/id_table_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "squashfs/format.h"
#include "squashfs/node_info.h"
#include "squashfs/table_writer.h"

void sqfs_id_table_init(struct sqfs_id_table *t)
{
	memset(&t->map, 0, sizeof(t->map));
	ff_vec_init(&t->ids, sizeof(uint32_t));
}

int sqfs_id_table_add(struct sqfs_id_table *t, const struct ff_node *n, uint32_t id,
		      struct ff_err *err)
{
	uint8_t key[4];
	uint64_t val;
	char path[4096];

	ff_put_le32(key, id);
	if (ff_hmap_find(&t->map, key, 4, &val))
		return 0;
	if (t->ids.len == SQFS_MAX_IDS)
		return ff_err_set(err, EOVERFLOW,
				  "%s: id %u would be distinct id number %zu (SquashFS holds at most %u)",
				  sqfs_node_name(n, path, sizeof(path)), id, t->ids.len + 1,
				  SQFS_MAX_IDS);
	if (ff_vec_reserve(&t->ids, t->ids.len + 1) < 0 ||
	    ff_hmap_set(&t->map, key, 4, t->ids.len) < 0)
		return ff_err_set(err, ENOMEM, "id table: out of memory");
	return ff_vec_push(&t->ids, &id);
}

uint32_t sqfs_id_table_count(const struct sqfs_id_table *t)
{
	return (uint32_t)t->ids.len;
}

uint16_t sqfs_id_table_index(const struct sqfs_id_table *t, uint32_t id)
{
	uint8_t key[4];
	uint64_t val = 0;

	ff_put_le32(key, id);
	ff_hmap_find(&t->map, key, 4, &val);
	return (uint16_t)val;
}

int sqfs_id_table_write(const struct sqfs_id_table *t, struct sqfs_sink *s,
			struct ff_comp_ctx *ctx, uint64_t *pos, struct ff_err *err)
{
	size_t count = t->ids.len;
	uint8_t *buf = malloc(count * 4 + 1);
	int ret;

	if (!buf)
		return ff_err_set(err, ENOMEM, "id table: out of memory");
	for (size_t i = 0; i < count; i++)
		ff_put_le32(buf + 4 * i, *FF_VEC_AT(&t->ids, uint32_t, i));
	ret = sqfs_table_write(s, ctx, buf, count * 4, NULL, 0, pos, err);
	free(buf);
	return ret;
}

void sqfs_id_table_free(struct sqfs_id_table *t)
{
	ff_hmap_clear(&t->map, NULL);
	ff_vec_free(&t->ids);
}
