/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes: the xattr id table (header + index at
 * xattr_id_table) names, per inode xattr index, a list of key/value pairs in
 * the key/value metadata area starting at kv_start.  Values may be stored
 * out of line: a u64 reference to a value elsewhere in that area. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "squashfs/fs_reader.h"

#define VALUE_MAX (64u * 1024u)

int sqfs_xattr_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err)
{
	uint64_t pos = rd->sb.xattr_id_table, nblocks, i;
	uint8_t hdr[SQFS_XATTR_TABLE_HEADER], raw[8];

	if (pos == SQFS_INVALID_BLK)
		return 0;
	if (sqfs_pread(rd, hdr, sizeof(hdr), pos, err) < 0)
		return ff_err_prefix(err, "xattr id table header");
	rd->xattr_kv_start = sqfs_get64(hdr, rd->sb.order);
	rd->xattr_count = sqfs_get32(hdr + 8, rd->sb.order);
	nblocks = ((uint64_t)rd->xattr_count * SQFS_XATTR_ID_SIZE + SQFS_META_SIZE - 1) /
		  SQFS_META_SIZE;
	if (rd->xattr_kv_start >= pos || nblocks * 8 > rd->size - pos - sizeof(hdr))
		return ff_err_set(err, EIO, "xattr id table at %llu: %u ids / key-value start %llu do not fit the image",
				  (unsigned long long)pos, rd->xattr_count,
				  (unsigned long long)rd->xattr_kv_start);
	rd->xattr_blocks = malloc(nblocks ? nblocks * 8 : 1);
	if (!rd->xattr_blocks)
		return ff_err_set(err, ENOMEM, "out of memory");
	rd->xattr_ids_start = pos;
	for (i = 0; i < nblocks; i++) {
		if (sqfs_pread(rd, raw, 8, pos + sizeof(hdr) + i * 8, err) < 0)
			return -1;
		rd->xattr_blocks[i] = sqfs_get64(raw, rd->sb.order);
		if (rd->xattr_blocks[i] < rd->xattr_kv_start || rd->xattr_blocks[i] >= pos)
			return ff_err_set(err, EIO, "xattr id table: block %llu at %llu outside %llu..%llu",
					  (unsigned long long)i,
					  (unsigned long long)rd->xattr_blocks[i],
					  (unsigned long long)rd->xattr_kv_start,
					  (unsigned long long)pos);
		if (rd->xattr_blocks[i] < rd->xattr_ids_start)
			rd->xattr_ids_start = rd->xattr_blocks[i];
	}
	*first_block = rd->xattr_kv_start;
	return 0;
}

static int read_id(struct sqfs_rd *rd, uint32_t idx, struct sqfs_xattr_id *id,
		   struct ff_err *err)
{
	uint64_t byte = (uint64_t)idx * SQFS_XATTR_ID_SIZE;
	struct sqfs_mpos pos = {rd->xattr_blocks[byte / SQFS_META_SIZE],
				(uint32_t)(byte % SQFS_META_SIZE), rd->sb.xattr_id_table};
	uint8_t raw[SQFS_XATTR_ID_SIZE];

	if (sqfs_meta_read(rd, &pos, raw, sizeof(raw), err) < 0)
		return ff_err_prefix(err, "xattr id %u", idx);
	sqfs_xattr_id_decode(raw, rd->sb.order, id);
	return 0;
}

static struct sqfs_mpos kv_pos(struct sqfs_rd *rd, uint64_t ref)
{
	return (struct sqfs_mpos){rd->xattr_kv_start + sqfs_ref_block(ref), sqfs_ref_offset(ref),
				  rd->xattr_ids_start};
}

static int read_value(struct sqfs_rd *rd, struct sqfs_mpos *pos, int ool, uint8_t *val,
		      uint32_t *len, struct ff_err *err)
{
	struct sqfs_mpos far;
	uint8_t raw[8];

	if (sqfs_meta_read(rd, pos, raw, 4, err) < 0)
		return -1;
	*len = sqfs_get32(raw, rd->sb.order);
	if (ool) {
		if (*len != 8 || sqfs_meta_read(rd, pos, raw, 8, err) < 0)
			return ff_err_set(err, EIO, "out-of-line xattr value reference of %u bytes",
					  *len);
		far = kv_pos(rd, sqfs_get64(raw, rd->sb.order));
		if (far.offset >= SQFS_META_SIZE || sqfs_meta_read(rd, &far, raw, 4, err) < 0)
			return ff_err_set(err, EIO, "out-of-line xattr value unreadable");
		*len = sqfs_get32(raw, rd->sb.order);
		pos = &far;
	}
	if (*len > VALUE_MAX)
		return ff_err_set(err, EIO, "xattr value of %u bytes (max %u)", *len, VALUE_MAX);
	return sqfs_meta_read(rd, pos, val, *len, err);
}

int sqfs_xattr_walk(struct sqfs_rd *rd, uint32_t idx, sqfs_xattr_fn fn, void *ctx,
		    struct ff_err *err)
{
	struct sqfs_xattr_id id;
	struct sqfs_mpos pos;
	uint8_t *val = NULL;
	char name[300];
	uint32_t i;
	int ret = 0;

	if (idx == SQFS_INVALID_XATTR)
		return 0;
	if (!rd->xattr_blocks || idx >= rd->xattr_count)
		return ff_err_set(err, EIO, "xattr index %u outside xattr table (%u)", idx,
				  rd->xattr_count);
	if (read_id(rd, idx, &id, err) < 0)
		return -1;
	pos = kv_pos(rd, id.ref);
	if (pos.offset >= SQFS_META_SIZE || pos.block >= rd->xattr_ids_start)
		return ff_err_set(err, EIO, "xattr id %u: reference 0x%llx outside key/value area",
				  idx, (unsigned long long)id.ref);
	val = malloc(VALUE_MAX);
	if (!val)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < id.count && !ret; i++) {
		struct sqfs_xattr_key k;
		uint8_t raw[SQFS_XATTR_KEY_SIZE];
		const char *prefix;
		size_t plen;
		uint32_t vlen;

		if (sqfs_meta_read(rd, &pos, raw, sizeof(raw), err) < 0 ||
		    sqfs_xattr_key_decode(raw, rd->sb.order, &k, err) < 0)
			goto bad;
		prefix = sqfs_xattr_prefix(k.type);
		plen = strlen(prefix);
		if (k.name_len == 0 || plen + k.name_len >= sizeof(name)) {
			ff_err_set(err, EIO, "xattr key name length %u", k.name_len);
			goto bad;
		}
		memcpy(name, prefix, plen);
		if (sqfs_meta_read(rd, &pos, name + plen, k.name_len, err) < 0 ||
		    read_value(rd, &pos, k.type & SQFS_XATTR_VALUE_OOL, val, &vlen, err) < 0)
			goto bad;
		name[plen + k.name_len] = '\0';
		if (memchr(name, '\0', plen + k.name_len)) {
			ff_err_set(err, EIO, "xattr name contains a NUL byte");
			goto bad;
		}
		ret = fn(ctx, name, plen + k.name_len, val, vlen);
	}
	free(val);
	return ret;
bad:
	free(val);
	return ff_err_prefix(err, "xattr id %u, pair %u", idx, i);
}
