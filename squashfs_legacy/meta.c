/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Metadata blocks: the inode, directory, fragment and export tables are
 * runs of blocks of at most 8 KiB payload, each after a 16-bit length in
 * the image's byte order whose bit 15 says the payload is stored
 * uncompressed.  Images made with the check option put one marker byte
 * between the length and the payload. */
#include <errno.h>
#include <string.h>

#include "common/endian.h"
#include "squashfs_legacy/legacy.h"

#define META_RAW 0x8000u

int lsq_pread(struct lsq_rd *rd, void *buf, size_t len, uint64_t pos, struct ff_err *err)
{
	if (pos > rd->sb.bytes_used || len > rd->sb.bytes_used - pos)
		return ff_err_set(err, EIO, "%zu bytes at offset %llu run past the file system "
				  "(%llu bytes)", len, (unsigned long long)pos,
				  (unsigned long long)rd->sb.bytes_used);
	return ff_bsrc_read(rd->src, buf, len, pos, err);
}

static ssize_t load_block(struct lsq_rd *rd, uint64_t pos, uint64_t limit, uint8_t *out,
			  uint64_t *next, struct ff_err *err)
{
	uint8_t hdr[3], in[LSQ_META_SIZE];
	unsigned skip = rd->sb.flags & LSQ_FLAG_CHECK ? 3 : 2;
	uint32_t word, stored;

	if (pos >= limit || limit - pos < skip)
		return ff_err_set(err, EIO, "metadata block at offset %llu outside its table "
				  "(ends at %llu)", (unsigned long long)pos,
				  (unsigned long long)limit);
	if (lsq_pread(rd, hdr, skip, pos, err) < 0)
		return -1;
	word = rd->sb.big ? ff_get_be16(hdr) : ff_get_le16(hdr);
	stored = word & ~META_RAW;
	if (!stored || stored > LSQ_META_SIZE || stored > limit - pos - skip)
		return ff_err_set(err, EIO, "metadata block at offset %llu: stored size %u "
				  "past 8192 bytes or its table's end %llu",
				  (unsigned long long)pos, stored, (unsigned long long)limit);
	*next = pos + skip + stored;
	if (word & META_RAW)
		return lsq_pread(rd, out, stored, pos + skip, err) < 0 ? -1 : (ssize_t)stored;
	if (lsq_pread(rd, in, stored, pos + skip, err) < 0)
		return -1;
	struct ff_err why = {0};
	ssize_t got = lsq_decompress(&rd->codec, in, stored, out, LSQ_META_SIZE, &why);

	if (got < 0)
		return ff_err_set(err, EIO, "metadata block at offset %llu: %s",
				  (unsigned long long)pos, why.msg);
	return got;
}

ssize_t lsq_meta_block(struct lsq_rd *rd, uint64_t pos, uint64_t limit, uint8_t *out,
		       uint64_t *next, struct ff_err *err)
{
	ssize_t got = lsq_cache_get(rd->meta, pos, out, LSQ_META_SIZE, next);

	if (got >= 0)
		return got;
	got = load_block(rd, pos, limit, out, next, err);
	if (got >= 0)
		lsq_cache_put(rd->meta, pos, out, (size_t)got, *next);
	return got;
}

int lsq_meta_read(struct lsq_rd *rd, struct lsq_mpos *p, void *dst, size_t len,
		  struct ff_err *err)
{
	uint8_t block[LSQ_META_SIZE];
	uint8_t *d = dst;

	while (len) {
		uint64_t next;
		ssize_t got = lsq_meta_block(rd, p->block, p->limit, block, &next, err);
		size_t n;

		if (got < 0)
			return -1;
		if (p->offset > (size_t)got)
			return ff_err_set(err, EIO, "offset %u past the %zd bytes of the metadata "
					  "block at %llu", p->offset, got,
					  (unsigned long long)p->block);
		n = (size_t)got - p->offset;
		if (n > len)
			n = len;
		memcpy(d, block + p->offset, n);
		d += n;
		len -= n;
		p->offset += (uint32_t)n;
		if (p->offset == (size_t)got && (len || got == LSQ_META_SIZE)) {
			p->block = next;
			p->offset = 0;
		}
	}
	return 0;
}
