/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File and symlink data: a table of one 32-bit pointer per block, then
 * the blocks, each its own zlib stream.  Pointer i is where block i ENDS;
 * block 0 starts right after the table, block i at pointer i-1, and a
 * block of length 0 is a hole (zeros).
 *
 * With CR_FLAG_EXT_BLOCK_PTRS a pointer's top bits say more: bit 31 the
 * block is stored uncompressed, bit 30 the pointer is "direct", the
 * block's START divided by 4 (uncompressed: a whole page; compressed:
 * a 16-bit length comes first).  A plain pointer after a direct one
 * starts where that direct block ends, as the kernel reads them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/endian.h"
#include "cramfs/reader.h"

#define BLK_UNCOMPRESSED (1u << 31)
#define BLK_DIRECT (1u << 30)
#define BLK_FLAGS (BLK_UNCOMPRESSED | BLK_DIRECT)

uint32_t cr_block_count(const struct cr_fs *c, const struct cr_inode *in)
{
	return in->size ? (in->size - 1) / c->blksize + 1 : 0;
}

static int read_u16(struct cr_fs *c, uint64_t at, uint32_t *v, struct ff_err *err)
{
	uint8_t b[2];

	if (at + 2 > c->span)
		return ff_err_set(err, EIO, "block length field at %llu past end of image (%llu bytes)",
				  (unsigned long long)at, (unsigned long long)c->span);
	if (ff_bsrc_read(c->src, b, 2, at, err))
		return -1;
	*v = ff_get16(b, c->sb.big);
	return 0;
}

/* Where the block before one with a plain pointer ended. */
static int prev_end(struct cr_fs *c, uint32_t prev, uint64_t *end, struct ff_err *err)
{
	uint64_t at = (uint64_t)(prev & ~BLK_FLAGS) << 2;
	uint32_t len;

	if (!(c->sb.flags & CR_FLAG_EXT_BLOCK_PTRS) || !(prev & BLK_DIRECT)) {
		*end = c->sb.flags & CR_FLAG_EXT_BLOCK_PTRS ? prev & ~BLK_FLAGS : prev;
		return 0;
	}
	if (prev & BLK_UNCOMPRESSED) {
		*end = at + c->blksize;
		return 0;
	}
	if (read_u16(c, at, &len, err))
		return -1;
	*end = at + 2 + len;
	return 0;
}

static int direct_extent(struct cr_fs *c, uint32_t ptr, struct cr_extent *e, struct ff_err *err)
{
	e->start = (uint64_t)(ptr & ~BLK_FLAGS) << 2;
	if (e->uncompressed) {
		e->len = e->want;
		return 0;
	}
	if (read_u16(c, e->start, &e->len, err))
		return -1;
	e->start += 2;
	return 0;
}

static int read_ptrs(struct cr_fs *c, const struct cr_inode *in, uint32_t i, uint32_t *prev,
		     uint32_t *cur, struct ff_err *err)
{
	uint32_t n = cr_block_count(c, in);
	uint64_t table = in->offset, at = table + 4ull * i;
	uint8_t b[8];

	if (!table)
		return ff_err_set(err, EIO, "data offset 0 with size %u", in->size);
	if (table + 4ull * n > c->span)
		return ff_err_set(err, EIO,
				  "block pointer table at %llu (%u pointers) runs past end of image"
				  " (%llu bytes)", (unsigned long long)table, n,
				  (unsigned long long)c->span);
	if (ff_bsrc_read(c->src, i ? b : b + 4, i ? 8 : 4, i ? at - 4 : at, err))
		return -1;
	*prev = i ? ff_get32(b, c->sb.big) : 0;
	*cur = ff_get32(b + 4, c->sb.big);
	return 0;
}

static int check_extent(struct cr_fs *c, uint32_t i, const struct cr_extent *e,
			struct ff_err *err)
{
	if (e->len > 2 * c->blksize || (e->uncompressed && e->len > c->blksize))
		return ff_err_set(err, EIO, "block %u at %llu: stored length %u too large for"
				  " %u-byte blocks", i, (unsigned long long)e->start, e->len,
				  c->blksize);
	if (e->start + e->len > c->span)
		return ff_err_set(err, EIO, "block %u at %llu (%u bytes) past end of image"
				  " (%llu bytes)", i, (unsigned long long)e->start, e->len,
				  (unsigned long long)c->span);
	return 0;
}

int cr_block_extent(struct cr_fs *c, const struct cr_inode *in, uint32_t i, struct cr_extent *e,
		    struct ff_err *err)
{
	int ext = !!(c->sb.flags & CR_FLAG_EXT_BLOCK_PTRS);
	uint32_t prev = 0, ptr = 0, n = cr_block_count(c, in);
	uint64_t start, end;

	if (i >= n)
		return ff_err_set(err, EINVAL, "block %u of %u", i, n);
	if (read_ptrs(c, in, i, &prev, &ptr, err))
		return -1;
	memset(e, 0, sizeof(*e));
	e->want = in->size - i * c->blksize < c->blksize ? in->size - i * c->blksize : c->blksize;
	e->uncompressed = ext && (ptr & BLK_UNCOMPRESSED);
	if (ext && (ptr & BLK_DIRECT)) {
		if (direct_extent(c, ptr, e, err))
			return -1;
		return check_extent(c, i, e, err);
	}
	start = (uint64_t)in->offset + 4ull * n;
	if (i && prev_end(c, prev, &start, err))
		return -1;
	end = ext ? ptr & ~BLK_FLAGS : ptr;
	if (end < start)
		return ff_err_set(err, EIO, "block %u ends at %llu before it starts (%llu)", i,
				  (unsigned long long)end, (unsigned long long)start);
	e->start = start;
	e->len = end - start > UINT32_MAX ? UINT32_MAX : (uint32_t)(end - start);
	return check_extent(c, i, e, err);
}

static int inflate_block(struct cr_fs *c, uint32_t i, const struct cr_extent *e, uint8_t *out,
			 struct ff_err *err)
{
	uint8_t *in = malloc(e->len);
	uLongf got = c->blksize;
	int zr;

	if (!in)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (ff_bsrc_read(c->src, in, e->len, e->start, err)) {
		free(in);
		return -1;
	}
	zr = uncompress(out, &got, in, e->len);
	free(in);
	if (zr == Z_BUF_ERROR && got == c->blksize)
		return ff_err_set(err, EIO, "block %u at %llu: decompresses to more than %u bytes",
				  i, (unsigned long long)e->start, c->blksize);
	if (zr != Z_OK)
		return ff_err_set(err, EIO, "block %u at %llu (%u bytes): zlib: %s", i,
				  (unsigned long long)e->start, e->len, zError(zr));
	if (got != e->want)
		return ff_err_set(err, EIO, "block %u at %llu: decompressed to %lu bytes, expected %u",
				  i, (unsigned long long)e->start, (unsigned long)got, e->want);
	return 0;
}

int cr_block_read(struct cr_fs *c, const struct cr_inode *in, uint32_t i, uint8_t *out,
		  uint32_t *got, struct ff_err *err)
{
	struct cr_extent e;

	if (cr_block_extent(c, in, i, &e, err))
		return -1;
	*got = e.want;
	if (!e.len) {
		memset(out, 0, e.want);
		return 0;
	}
	if (!e.uncompressed)
		return inflate_block(c, i, &e, out, err);
	/* The kernel zero-fills what an uncompressed block leaves short. */
	memset(out + e.len, 0, e.want > e.len ? e.want - e.len : 0);
	return ff_bsrc_read(c->src, out, e.len < e.want ? e.len : e.want, e.start, err);
}
