/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A file's bytes, whatever its layout: flat blocks (with the last block
 * inline after the inode for FLAT_INLINE), chunks found through a block
 * map or chunk indexes, or compressed extents decoded whole once and kept
 * in the pcluster cache (a tail may sit in the packed inode). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "erofs/reader.h"

static uint64_t nblocks(const struct er_rd *rd, uint64_t size)
{
	return (size >> rd->sb.blkszbits) + ((size & (rd->sb.blksz - 1)) != 0);
}

int er_map_flat(const struct er_rd *rd, const struct er_inode *ino, uint64_t off,
		struct er_map *map, struct ff_err *err)
{
	uint64_t last = nblocks(rd, ino->size) - (ino->layout == ER_FLAT_INLINE);
	uint64_t lastpos = er_blkpos(rd, last);

	memset(map, 0, sizeof(*map));
	map->la = off;
	if (off < lastpos) {
		map->llen = map->plen = lastpos - off;
		map->flags = ino->startblk_null ? 0 : ER_MAP_MAPPED;
		map->pa = er_blkpos(rd, ino->startblk) + off;
		return 0;
	}
	/* The inline tail: right after the inode and its xattrs, inside the
	 * same metadata block. */
	map->pa = er_inode_tail(ino) + (off - lastpos);
	map->llen = map->plen = ino->size - off;
	map->flags = ER_MAP_MAPPED | ER_MAP_META;
	if ((er_inode_tail(ino) & (rd->sb.blksz - 1)) + (ino->size - lastpos) > rd->sb.blksz)
		return ER_BAD(err, "inode %llu: %llu inline bytes cross a block boundary",
			      (unsigned long long)ino->nid,
			      (unsigned long long)(ino->size - lastpos));
	return 0;
}

int er_map_chunk(const struct er_rd *rd, const struct er_inode *ino, uint64_t off,
		 struct er_map *map, struct ff_err *err)
{
	unsigned unit = ino->chunkformat & ER_CHUNK_INDEXES ? 8 : 4;
	uint64_t idx = off >> ino->chunkbits, blk;
	uint64_t pos = ((er_inode_tail(ino) + unit - 1) & ~(uint64_t)(unit - 1)) + idx * unit;
	uint8_t b[8];
	int ret;

	memset(map, 0, sizeof(*map));
	if ((ret = er_pread(rd, b, unit, pos, "chunk index", ino->nid, err)) < 0)
		return ret;
	blk = unit == 8 ? ff_get_le32(b + 4) : ff_get_le32(b);
	map->la = idx << ino->chunkbits;
	map->llen = ino->size - map->la;
	if (map->llen > (1ull << ino->chunkbits))
		map->llen = 1ull << ino->chunkbits;
	if (blk != ER_NULL_ADDR32) {
		map->flags = ER_MAP_MAPPED;
		map->pa = er_blkpos(rd, blk);
		map->plen = map->llen;
	}
	return 0;
}

/* The bytes of one uncompressed extent from pos on. */
static ssize_t read_plain(struct er_rd *rd, const struct er_inode *ino, const struct er_map *m,
			  uint8_t *buf, size_t len, uint64_t pos, struct ff_err *err)
{
	uint64_t n = m->la + m->llen - pos;
	int ret;

	if (n > len)
		n = len;
	if (!(m->flags & ER_MAP_MAPPED)) {
		memset(buf, 0, n);
		return (ssize_t)n;
	}
	ret = er_pread(rd, buf, n, m->pa + (pos - m->la), "file data", ino->nid, err);
	return ret < 0 ? ret : (ssize_t)n;
}

static int load_packed(struct er_rd *rd, const struct er_inode *ino, struct er_inode *packed,
		       struct ff_err *err)
{
	if (!rd->sb.packed_nid || ino->nid == rd->sb.packed_nid)
		return ER_BAD(err, "inode %llu: a fragment but %s", (unsigned long long)ino->nid,
			      rd->sb.packed_nid ? "it is the packed inode" : "no packed inode");
	return er_inode_load(rd, rd->sb.packed_nid, packed, err);
}

/* Decodes the whole extent (once: the cache keeps it). */
static int decode_extent(struct er_rd *rd, const struct er_inode *ino, const struct er_map *m,
			 uint8_t **out, struct ff_err *err)
{
	uint8_t *raw = malloc(m->plen), *dec = malloc(m->llen ? m->llen : 1);
	int ret;

	if (!raw || !dec) {
		free(raw);
		free(dec);
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	}
	ret = er_pread(rd, raw, m->plen, m->pa, "pcluster", ino->nid, err);
	if (!ret)
		ret = er_decompress(rd, m->alg, raw, m->plen, dec, m->llen,
				    !!(m->flags & ER_MAP_PARTIAL), m->la, err);
	free(raw);
	if (ret < 0) {
		free(dec);
		ff_err_prefix(err, "inode %llu: extent at %llu", (unsigned long long)ino->nid,
			      (unsigned long long)m->la);
		return ret;
	}
	*out = dec;
	return 0;
}

static ssize_t read_encoded(struct er_rd *rd, const struct er_inode *ino,
			    const struct er_zinfo *z, const struct er_map *m, uint8_t *buf,
			    size_t len, uint64_t pos, struct ff_err *err)
{
	uint64_t n = m->la + m->llen - pos;
	struct er_inode packed;
	uint8_t *dec;
	ssize_t got;
	int ret;

	if (n > len)
		n = len;
	if (m->flags & ER_MAP_FRAGMENT) {
		if ((ret = load_packed(rd, ino, &packed, err)) < 0)
			return ret;
		got = er_read(rd, &packed, buf, n, z->fragmentoff + (pos - m->la), err);
		if (got >= 0 && (uint64_t)got != n)
			return ER_BAD(err, "inode %llu: fragment at %llu past the packed inode's "
				      "%llu bytes", (unsigned long long)ino->nid,
				      (unsigned long long)z->fragmentoff,
				      (unsigned long long)packed.size);
		return got;
	}
	if (er_pcache_get(&rd->cache, ino->nid, m->la, buf, pos - m->la, n))
		return (ssize_t)n;
	if ((ret = decode_extent(rd, ino, m, &dec, err)) < 0)
		return ret;
	memcpy(buf, dec + (pos - m->la), n);
	er_pcache_put(&rd->cache, ino->nid, m->la, dec, m->llen);
	return (ssize_t)n;
}

static ssize_t read_compressed(struct er_rd *rd, const struct er_inode *ino, uint8_t *buf,
			       size_t len, uint64_t off, struct ff_err *err)
{
	struct er_zinfo z;
	struct er_map m;
	size_t done = 0;
	ssize_t n;
	int ret;

	if ((ret = er_zinfo_load(rd, ino, &z, err)) < 0)
		return ret;
	while (done < len) {
		if ((ret = er_zmap(rd, ino, &z, off + done, &m, err)) < 0)
			return ret;
		n = read_encoded(rd, ino, &z, &m, buf + done, len - done, off + done, err);
		if (n <= 0)
			return n < 0 ? n : ER_BAD(err, "inode %llu: empty extent", 
						  (unsigned long long)ino->nid);
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t er_read(struct er_rd *rd, const struct er_inode *ino, void *buf, size_t len,
		uint64_t off, struct ff_err *err)
{
	struct er_map m;
	size_t done = 0;
	ssize_t n;
	int ret;

	len = ff_read_span(ino->size, off, len);
	if (!len)
		return 0;
	if (ino->layout == ER_COMPRESSED_FULL || ino->layout == ER_COMPRESSED_COMPACT)
		return read_compressed(rd, ino, buf, len, off, err);
	while (done < len) {
		if (ino->layout == ER_CHUNK_BASED)
			ret = er_map_chunk(rd, ino, off + done, &m, err);
		else
			ret = er_map_flat(rd, ino, off + done, &m, err);
		if (ret < 0)
			return ret;
		n = read_plain(rd, ino, &m, (uint8_t *)buf + done, len - done, off + done, err);
		if (n <= 0)
			return n < 0 ? n : ER_BAD(err, "inode %llu: empty extent",
						  (unsigned long long)ino->nid);
		done += (size_t)n;
	}
	return (ssize_t)done;
}
