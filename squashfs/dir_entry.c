/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory listing structures: the header that starts each run of up to
 * 256 entries sharing one inode metadata block, the entries, and the
 * directory index of extended directory inodes. */
#include <errno.h>

#include "common/endian.h"
#include "squashfs/format.h"

void sqfs_dir_header_encode(const struct sqfs_dir_header *h, uint8_t out[SQFS_DIR_HEADER_SIZE])
{
	ff_put_le32(out, h->count - 1);
	ff_put_le32(out + 4, h->start);
	ff_put_le32(out + 8, h->inode_number);
}

int sqfs_dir_header_decode(const uint8_t in[SQFS_DIR_HEADER_SIZE], enum sqfs_order o,
			   struct sqfs_dir_header *h, struct ff_err *err)
{
	uint32_t stored = sqfs_get32(in, o);

	if (stored >= SQFS_DIR_MAX_ENTRIES)
		return ff_err_set(err, EINVAL, "directory header: %u entries (max %u)", stored + 1,
				  SQFS_DIR_MAX_ENTRIES);
	h->count = stored + 1;
	h->start = sqfs_get32(in + 4, o);
	h->inode_number = sqfs_get32(in + 8, o);
	return 0;
}

void sqfs_dir_entry_encode(const struct sqfs_dir_entry *e, uint8_t out[SQFS_DIR_ENTRY_SIZE])
{
	ff_put_le16(out, e->offset);
	ff_put_le16(out + 2, (uint16_t)e->inode_delta);
	ff_put_le16(out + 4, e->type);
	ff_put_le16(out + 6, (uint16_t)(e->name_len - 1));
}

int sqfs_dir_entry_decode(const uint8_t in[SQFS_DIR_ENTRY_SIZE], enum sqfs_order o,
			  struct sqfs_dir_entry *e, struct ff_err *err)
{
	e->offset = sqfs_get16(in, o);
	e->inode_delta = (int16_t)sqfs_get16(in + 2, o);
	e->type = sqfs_get16(in + 4, o);
	e->name_len = (uint16_t)(sqfs_get16(in + 6, o) + 1);
	if (e->type < SQFS_DIR || e->type > SQFS_SOCKET)
		return ff_err_set(err, EINVAL, "directory entry: bad type %u", e->type);
	if (e->name_len > SQFS_NAME_MAX)
		return ff_err_set(err, EINVAL, "directory entry: name length %u > %u", e->name_len,
				  SQFS_NAME_MAX);
	if (e->offset >= SQFS_META_SIZE)
		return ff_err_set(err, EINVAL, "directory entry: inode offset %u >= %u", e->offset,
				  SQFS_META_SIZE);
	return 0;
}

void sqfs_dir_index_encode(const struct sqfs_dir_index *x, uint8_t out[SQFS_DIR_INDEX_SIZE])
{
	ff_put_le32(out, x->index);
	ff_put_le32(out + 4, x->start);
	ff_put_le32(out + 8, x->name_len - 1);
}

int sqfs_dir_index_decode(const uint8_t in[SQFS_DIR_INDEX_SIZE], enum sqfs_order o,
			  struct sqfs_dir_index *x, struct ff_err *err)
{
	uint32_t stored = sqfs_get32(in + 8, o);

	x->index = sqfs_get32(in, o);
	x->start = sqfs_get32(in + 4, o);
	if (stored >= SQFS_NAME_MAX)
		return ff_err_set(err, EINVAL, "directory index: name length %u > %u", stored + 1,
				  SQFS_NAME_MAX);
	x->name_len = stored + 1;
	return 0;
}
