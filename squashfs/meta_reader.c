/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Metadata blocks: a 2-byte header then up to 8 KiB (compressed or not).
 * Decoded blocks are cached by their image position; a cached block also
 * remembers where the next one starts, so walking a table after the first
 * visit costs no I/O.  Reads may span any number of blocks. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "squashfs/fs_reader.h"

/* Metadata is read in scattered 8 KiB pieces (a directory, then its
 * children's inodes), which never triggers the kernel's read-ahead, so a
 * cold walk pays one disk round trip per block.  On a miss, ask the kernel
 * to start reading the next stretch of the table as well: the tables are
 * small and a walk touches most of them. */
#define META_AHEAD (512u << 10)

static void meta_ahead(struct sqfs_rd *rd, uint64_t pos, uint64_t limit)
{
	uint64_t len = limit - pos < META_AHEAD ? limit - pos : META_AHEAD;

	ff_bsrc_advise(rd->src, pos, len, POSIX_FADV_WILLNEED);
}

static struct sqfs_cbuf *load_block(struct sqfs_rd *rd, uint64_t pos, uint64_t limit,
				    struct ff_err *err)
{
	struct sqfs_cbuf *b = sqfs_cache_get(rd->meta, pos);
	ssize_t n;

	if (b)
		return b;
	if (pos >= limit || limit - pos < SQFS_META_HEADER_SIZE + 1) {
		ff_err_set(err, EIO, "metadata block at %llu outside its table (ends at %llu)",
			   (unsigned long long)pos, (unsigned long long)limit);
		return NULL;
	}
	meta_ahead(rd, pos, limit);
	b = sqfs_cache_alloc(rd->meta, SQFS_META_SIZE);
	if (!b) {
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	n = sqfs_read_meta_block(rd, pos, limit, b->data, &b->aux, err);
	if (n < 0) {
		sqfs_cbuf_release(b);
		return NULL;
	}
	b->len = (uint32_t)n;
	return sqfs_cache_put(rd->meta, pos, b);
}

int sqfs_meta_read(struct sqfs_rd *rd, struct sqfs_mpos *pos, void *dst, size_t len,
		   struct ff_err *err)
{
	uint8_t *out = dst;

	while (len) {
		struct sqfs_cbuf *b = load_block(rd, pos->block, pos->limit, err);
		size_t take;

		if (!b)
			return -1;
		if (pos->offset >= b->len) {
			if (b->len < SQFS_META_SIZE || pos->offset > b->len) {
				sqfs_cbuf_release(b);
				return ff_err_set(err, EIO,
						  "metadata block at %llu: offset %u past its %u bytes",
						  (unsigned long long)pos->block, pos->offset,
						  b->len);
			}
			pos->block = b->aux;
			pos->offset = 0;
			sqfs_cbuf_release(b);
			continue;
		}
		take = b->len - pos->offset;
		if (take > len)
			take = len;
		if (out) {
			memcpy(out, b->data + pos->offset, take);
			out += take;
		}
		pos->offset += (uint32_t)take;
		len -= take;
		sqfs_cbuf_release(b);
	}
	return 0;
}

int sqfs_table_load(struct sqfs_rd *rd, const char *what, uint64_t index_pos, uint64_t len,
		    void *dst, uint64_t *first_block, struct ff_err *err)
{
	uint64_t nblocks = (len + SQFS_META_SIZE - 1) / SQFS_META_SIZE, i;
	uint8_t raw[8];
	uint8_t *out = dst;

	if (index_pos > rd->size || nblocks * 8 > rd->size - index_pos)
		return ff_err_set(err, EIO, "%s table: index of %llu blocks at %llu past end of image (size %llu)",
				  what, (unsigned long long)nblocks,
				  (unsigned long long)index_pos, (unsigned long long)rd->size);
	for (i = 0; i < nblocks; i++) {
		uint64_t want = len - i * SQFS_META_SIZE;
		struct sqfs_mpos pos;

		if (want > SQFS_META_SIZE)
			want = SQFS_META_SIZE;
		if (sqfs_pread(rd, raw, 8, index_pos + i * 8, err) < 0)
			return -1;
		pos.block = sqfs_get64(raw, rd->sb.order);
		pos.offset = 0;
		pos.limit = index_pos; /* table blocks precede their index */
		if (i == 0 && first_block)
			*first_block = pos.block;
		if (sqfs_meta_read(rd, &pos, out + i * SQFS_META_SIZE, want, err) < 0 ||
		    (want == SQFS_META_SIZE && pos.offset != SQFS_META_SIZE))
			return ff_err_prefix(err, "%s table block %llu", what,
					     (unsigned long long)i);
	}
	return 0;
}

int sqfs_meta_normalize(struct sqfs_rd *rd, struct sqfs_mpos *pos, struct ff_err *err)
{
	struct sqfs_mpos p = *pos;
	uint8_t byte;

	if (sqfs_meta_read(rd, &p, &byte, 1, err) < 0)
		return -1;
	pos->block = p.block;
	pos->offset = p.offset - 1;
	return 0;
}

/* Where the header at pos says the next block starts when read in order
 * o; 0 when it cannot be read or the block would not end by end. */
static uint64_t header_next(struct sqfs_rd *rd, uint64_t pos, uint64_t end, enum sqfs_order o)
{
	uint8_t raw[SQFS_META_HEADER_SIZE];
	uint32_t size;
	int uncompressed;

	if (end - pos < SQFS_META_HEADER_SIZE || sqfs_pread(rd, raw, sizeof(raw), pos, NULL) < 0 ||
	    sqfs_meta_header_decode(raw, o, &size, &uncompressed, NULL) < 0 ||
	    size > end - pos - SQFS_META_HEADER_SIZE)
		return 0;
	return pos + SQFS_META_HEADER_SIZE + size;
}

/* Both orders are followed block by block through the inode table, which
 * check_tables put before the directory table; the first to go wrong
 * loses, so this usually reads a header or two.  A header can be valid
 * both ways (0x10 0x10), never a whole chain that ends exactly at the
 * directory table.  If neither decodes, the fields' order is kept and
 * the reads that follow report the damage. */
void sqfs_meta_order_detect(struct sqfs_rd *rd)
{
	uint64_t end = rd->sb.dir_table, le = rd->sb.inode_table, be = le;

	rd->meta_order = SQFS_LE;
	if (rd->sb.order == SQFS_LE)
		return;
	while (le && be && le < end && be < end) {
		le = header_next(rd, le, end, SQFS_LE);
		be = header_next(rd, be, end, SQFS_BE);
	}
	/* Little-endian wins where it got further: its chain ended first, or
	 * the other broke first; a tie keeps the fields' order. */
	rd->meta_order = (le == end || (le && !be)) && be != end ? SQFS_LE : SQFS_BE;
}
