/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The export table maps inode numbers to inode references (NFS export).
 * Only its index is held; entries are read through the metadata cache. */
#include <errno.h>
#include <stdlib.h>

#include "squashfs/fs_reader.h"

int sqfs_export_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err)
{
	uint64_t nblocks = ((uint64_t)rd->sb.inode_count * 8 + SQFS_META_SIZE - 1) / SQFS_META_SIZE;
	uint64_t i;
	uint8_t raw[8];

	if (!(rd->sb.flags & SQFS_FLAG_EXPORTABLE) || rd->sb.export_table == SQFS_INVALID_BLK)
		return 0;
	if (rd->sb.export_table > rd->size || nblocks * 8 > rd->size - rd->sb.export_table)
		return ff_err_set(err, EIO, "export table: index at %llu past end of image (size %llu)",
				  (unsigned long long)rd->sb.export_table,
				  (unsigned long long)rd->size);
	rd->export_blocks = malloc(nblocks * 8);
	if (!rd->export_blocks)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < nblocks; i++) {
		if (sqfs_pread(rd, raw, 8, rd->sb.export_table + i * 8, err) < 0)
			return -1;
		rd->export_blocks[i] = sqfs_get64(raw, rd->sb.order);
		if (rd->export_blocks[i] >= rd->sb.export_table)
			return ff_err_set(err, EIO, "export table: block %llu at %llu not before its index at %llu",
					  (unsigned long long)i,
					  (unsigned long long)rd->export_blocks[i],
					  (unsigned long long)rd->sb.export_table);
	}
	*first_block = rd->export_blocks[0];
	return 0;
}

int sqfs_export_lookup(struct sqfs_rd *rd, uint32_t ino, uint64_t *ref, struct ff_err *err)
{
	uint64_t byte = (uint64_t)(ino - 1) * 8;
	struct sqfs_mpos pos;
	uint8_t raw[8];

	if (!rd->export_blocks)
		return ff_err_set(err, ENOENT, "image has no export table");
	if (ino == 0 || ino > rd->sb.inode_count)
		return ff_err_set(err, EIO, "inode number %u outside 1..%u", ino,
				  rd->sb.inode_count);
	pos.block = rd->export_blocks[byte / SQFS_META_SIZE];
	pos.offset = (uint32_t)(byte % SQFS_META_SIZE);
	pos.limit = rd->sb.export_table;
	if (sqfs_meta_read(rd, &pos, raw, 8, err) < 0)
		return ff_err_prefix(err, "export table entry %u", ino);
	*ref = sqfs_get64(raw, rd->sb.order);
	return 0;
}
