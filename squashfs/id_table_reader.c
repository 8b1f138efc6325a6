/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The id table: up to 65536 u32 uids/gids, loaded whole at open. */
#include <errno.h>
#include <stdlib.h>

#include "squashfs/fs_reader.h"

int sqfs_ids_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err)
{
	uint32_t n = rd->sb.id_count, i;
	uint8_t *raw = malloc((size_t)n * 4);

	rd->ids = malloc((size_t)n * sizeof(*rd->ids));
	if (!raw || !rd->ids) {
		free(raw);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	if (sqfs_table_load(rd, "id", rd->sb.id_table, (uint64_t)n * 4, raw, first_block, err) < 0) {
		free(raw);
		return -1;
	}
	for (i = 0; i < n; i++)
		rd->ids[i] = sqfs_get32(raw + 4 * i, rd->sb.order);
	free(raw);
	return 0;
}

int sqfs_id_get(struct sqfs_rd *rd, uint16_t idx, uint32_t *id, struct ff_err *err)
{
	if (idx >= rd->sb.id_count)
		return ff_err_set(err, EIO, "id index %u outside id table (%u)", idx,
				  rd->sb.id_count);
	*id = rd->ids[idx];
	return 0;
}
