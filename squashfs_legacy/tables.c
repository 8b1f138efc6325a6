/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tables after the directory table.  The writers laid them out, from
 * the directory table on: the fragment table's metadata blocks and its
 * index (2.x, 3.x), the export table's blocks and index (3.x, when
 * exportable), then the uid and gid tables (plain 32-bit words) up to
 * bytes_used.  Each index's length follows from a count in the
 * superblock, so each must end exactly where the next table starts: that
 * chain, walked from the end backwards, is what proves the superblock's
 * counts (as unsquashfs checks them). */
#include <errno.h>
#include <stdlib.h>

#include "common/endian.h"
#include "squashfs_legacy/legacy.h"

static uint32_t get32(const struct lsq_rd *rd, const uint8_t *p)
{
	return rd->sb.big ? ff_get_be32(p) : ff_get_le32(p);
}

static int load_ids(struct lsq_rd *rd, const char *what, uint32_t n, uint64_t start,
		    uint64_t end, uint32_t **out, struct ff_err *err)
{
	uint8_t raw[256 * 4];

	if (start > end || end - start != (uint64_t)n * 4)
		return ff_err_set(err, EIO, "%s table: %u entries at offset %llu do not end at "
				  "the next table (%llu)", what, n, (unsigned long long)start,
				  (unsigned long long)end);
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (lsq_pread(rd, raw, (size_t)n * 4, start, err) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		(*out)[i] = get32(rd, raw + 4 * i);
	return 0;
}

/* An index of `count` block positions (4 or 8 bytes each) at start,
 * ending at *end; *end becomes its first block, where the table's blocks
 * (and so the previous table's end) begin. */
static int load_index(struct lsq_rd *rd, const char *what, uint64_t count, unsigned width,
		      uint64_t start, uint64_t *end, uint64_t **out, struct ff_err *err)
{
	uint64_t bytes = count * width;
	uint8_t *raw;

	if (start >= *end || *end - start != bytes)
		return ff_err_set(err, EIO, "%s index: %llu entries at offset %llu do not end at "
				  "the next table (%llu)", what, (unsigned long long)count,
				  (unsigned long long)start, (unsigned long long)*end);
	raw = malloc(bytes);
	*out = calloc(count, sizeof(**out));
	if (!raw || !*out) {
		free(raw);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	if (lsq_pread(rd, raw, bytes, start, err) < 0) {
		free(raw);
		return -1;
	}
	for (uint64_t i = 0; i < count; i++)
		(*out)[i] = width == 8 ? lsq_bits(raw + 8 * i, 0, 64, rd->sb.big)
				       : get32(rd, raw + 4 * i);
	free(raw);
	if ((*out)[0] < rd->sb.dir_table || (*out)[0] >= start)
		return ff_err_set(err, EIO, "%s index: first block at offset %llu outside %llu..%llu",
				  what, (unsigned long long)(*out)[0],
				  (unsigned long long)rd->sb.dir_table, (unsigned long long)start);
	*end = (*out)[0];
	return 0;
}

static int load_ids_both(struct lsq_rd *rd, uint64_t *table_start, struct ff_err *err)
{
	const struct lsq_super *sb = &rd->sb;

	*table_start = sb->bytes_used;
	if (sb->no_guids) {
		if (load_ids(rd, "gid", sb->no_guids, sb->guid_start, *table_start, &rd->gids,
			     err) < 0)
			return -1;
		*table_start = sb->guid_start;
	}
	if (load_ids(rd, "uid", sb->no_uids, sb->uid_start, *table_start, &rd->uids, err) < 0)
		return -1;
	*table_start = sb->uid_start;
	return 0;
}

static int load_export(struct lsq_rd *rd, uint64_t *table_start, struct ff_err *err)
{
	uint64_t count = ((uint64_t)rd->sb.inodes * 8 + LSQ_META_SIZE - 1) / LSQ_META_SIZE;

	if (rd->sb.major < 3 || rd->sb.lookup_table == LSQ_NO_TABLE)
		return 0;
	if (!count)
		return ff_err_set(err, EIO, "export table with no inodes");
	rd->export_blocks = (uint32_t)count;
	return load_index(rd, "export table", count, 8, rd->sb.lookup_table, table_start,
			  &rd->export_index, err);
}

static int load_fragments(struct lsq_rd *rd, uint64_t *table_start, struct ff_err *err)
{
	const struct lsq_super *sb = &rd->sb;
	unsigned esz = sb->major == 2 ? 8 : 16;
	uint64_t count = ((uint64_t)sb->fragments * esz + LSQ_META_SIZE - 1) / LSQ_META_SIZE;

	if (sb->major < 2)
		return 0;
	if (!sb->fragments) {
		if (sb->fragment_table != *table_start)
			return ff_err_set(err, EIO, "superblock: no fragments, but the fragment "
					  "table at %llu is not where the next table starts (%llu)",
					  (unsigned long long)sb->fragment_table,
					  (unsigned long long)*table_start);
		return 0;
	}
	if (sb->fragments > sb->inodes)
		return ff_err_set(err, EIO, "superblock: %u fragments for %u inodes",
				  sb->fragments, sb->inodes);
	rd->frag_blocks = (uint32_t)count;
	return load_index(rd, "fragment table", count, esz == 8 ? 4 : 8, sb->fragment_table,
			  table_start, &rd->frag_index, err);
}

int lsq_tables_load(struct lsq_rd *rd, struct ff_err *err)
{
	uint64_t table_start;

	if (load_ids_both(rd, &table_start, err) < 0 || load_export(rd, &table_start, err) < 0 ||
	    load_fragments(rd, &table_start, err) < 0)
		return -1;
	if (rd->sb.dir_table > table_start)
		return ff_err_set(err, EIO, "superblock: directory table at %llu starts after the "
				  "tables that follow it (%llu)",
				  (unsigned long long)rd->sb.dir_table,
				  (unsigned long long)table_start);
	rd->dir_end = table_start;
	return 0;
}

int lsq_fragment(struct lsq_rd *rd, uint32_t i, uint64_t *start, uint32_t *size,
		 struct ff_err *err)
{
	unsigned esz = rd->sb.major == 2 ? 8 : 16;
	uint64_t byte = (uint64_t)i * esz;
	uint8_t e[16];
	struct lsq_mpos p;

	if (i >= rd->sb.fragments)
		return ff_err_set(err, EIO, "fragment %u past the fragment table (%u entries)", i,
				  rd->sb.fragments);
	p.block = rd->frag_index[byte / LSQ_META_SIZE];
	p.offset = (uint32_t)(byte % LSQ_META_SIZE);
	p.limit = rd->sb.fragment_table;
	if (lsq_meta_read(rd, &p, e, esz, err) < 0)
		return -1;
	*start = esz == 8 ? get32(rd, e) : lsq_bits(e, 0, 64, rd->sb.big);
	*size = get32(rd, e + (esz == 8 ? 4 : 8));
	return 0;
}

int lsq_export_ref(struct lsq_rd *rd, uint32_t n, uint64_t *ref, struct ff_err *err)
{
	uint64_t byte = ((uint64_t)n - 1) * 8;
	uint8_t e[8];
	struct lsq_mpos p;

	if (!rd->export_index || n == 0 || n > rd->sb.inodes)
		return ff_err_set(err, EIO, "inode number %u not in the export table", n);
	p.block = rd->export_index[byte / LSQ_META_SIZE];
	p.offset = (uint32_t)(byte % LSQ_META_SIZE);
	p.limit = rd->sb.lookup_table;
	if (lsq_meta_read(rd, &p, e, 8, err) < 0)
		return -1;
	*ref = lsq_bits(e, 0, 64, rd->sb.big);
	return 0;
}
