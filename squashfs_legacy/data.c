/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File contents: data blocks from the inode's start position, one after
 * the other, each described by a word of the block list that follows the
 * inode (1.x: 16 bits, bit 15 = stored raw; 2.x and 3.x: 32 bits, bit 24 =
 * stored raw, 0 = a hole of zeros), then the file's tail in a fragment
 * block shared with other files (2.x, 3.x).  The block list is streamed, so
 * memory does not grow with the size a damaged inode claims. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "squashfs_legacy/legacy.h"

#define LIST_CHUNK 256
#define BLOCK_RAW_2 (1u << 24)

struct blist {
	struct lsq_rd *rd;
	const struct lsq_inode *in;
	struct lsq_mpos p;
	uint64_t left;          /* entries not yet read from the image */
	uint8_t buf[LIST_CHUNK * 4];
	unsigned have, at;
};

static int blist_next(struct blist *b, uint32_t *word, struct ff_err *err)
{
	unsigned esz = b->rd->sb.major == 1 ? 2 : 4;

	if (b->at == b->have) {
		unsigned n = b->left < LIST_CHUNK ? (unsigned)b->left : LIST_CHUNK;

		if (!n)
			return ff_err_set(err, EIO, "inode %llu: block list ended",
					  (unsigned long long)b->in->ref);
		if (lsq_meta_read(b->rd, &b->p, b->buf, (size_t)n * esz, err) < 0)
			return -1;
		b->left -= n;
		b->have = n;
		b->at = 0;
	}
	const uint8_t *e = b->buf + (size_t)b->at++ * esz;

	if (esz == 2)
		*word = b->rd->sb.big ? ff_get_be16(e) : ff_get_le16(e);
	else
		*word = b->rd->sb.big ? ff_get_be32(e) : ff_get_le32(e);
	return 0;
}

/* A size word's stored length and whether it is raw. */
static uint32_t word_size(const struct lsq_rd *rd, uint32_t w, int *raw)
{
	if (rd->sb.major == 1) {
		*raw = !!(w & 0x8000);
		return w & 0x7fff ? w & 0x7fff : 0x8000;
	}
	*raw = !!(w & BLOCK_RAW_2);
	return w & ~BLOCK_RAW_2;
}

/* Reads stored bytes at pos and decodes them to at most cap bytes. */
static ssize_t load_block(struct lsq_rd *rd, uint64_t pos, uint32_t stored, int raw, uint8_t *out,
			  size_t cap, struct ff_err *err)
{
	ssize_t got = lsq_cache_get(rd->data, pos, out, cap, NULL);
	uint8_t *in;

	if (got >= 0)
		return got;
	if (stored > cap || pos < rd->sb.sb_size || pos + stored > rd->sb.inode_table)
		return ff_err_set(err, EIO, "data block at offset %llu (%u bytes) outside the data "
				  "area (%u..%llu) or over the block size",
				  (unsigned long long)pos, stored, rd->sb.sb_size,
				  (unsigned long long)rd->sb.inode_table);
	if (raw) {
		if (lsq_pread(rd, out, stored, pos, err) < 0)
			return -1;
		got = stored;
	} else {
		in = malloc(stored ? stored : 1);
		if (!in)
			return ff_err_set(err, ENOMEM, "out of memory");
		got = lsq_pread(rd, in, stored, pos, err) < 0
			? -1 : lsq_decompress(&rd->codec, in, stored, out, cap, err);
		free(in);
		if (got < 0)
			return -1;
	}
	lsq_cache_put(rd->data, pos, out, (size_t)got, 0);
	return got;
}

static int copy_block(struct lsq_rd *rd, const struct lsq_inode *in, uint64_t k, uint64_t pos,
		      uint32_t w, uint8_t *tmp, uint8_t *dst, uint64_t from, size_t n,
		      struct ff_err *err)
{
	uint64_t bs = rd->sb.block_size;
	uint64_t want = in->size - k * bs < bs ? in->size - k * bs : bs;
	int raw = 0;
	uint32_t stored = word_size(rd, w, &raw);
	struct ff_err why = {0};
	ssize_t got;

	if (!stored) {
		memset(dst, 0, n);
		return 0;
	}
	got = load_block(rd, pos, stored, raw, tmp, (size_t)bs, &why);
	if (got < 0)
		return ff_err_set(err, why.code, "inode %llu: block %llu: %s",
				  (unsigned long long)in->ref, (unsigned long long)k, why.msg);
	if ((uint64_t)got != want)
		return ff_err_set(err, EIO, "inode %llu: block %llu holds %zd bytes, %llu expected",
				  (unsigned long long)in->ref, (unsigned long long)k, got,
				  (unsigned long long)want);
	memcpy(dst, tmp + from, n);
	return 0;
}

static int copy_tail(struct lsq_rd *rd, const struct lsq_inode *in, uint8_t *tmp, uint8_t *dst,
		     uint64_t from, size_t n, struct ff_err *err)
{
	uint64_t start, tail = in->size % rd->sb.block_size;
	uint32_t w, stored;
	int raw = 0;
	struct ff_err why = {0};
	ssize_t got;

	if (lsq_fragment(rd, in->fragment, &start, &w, err) < 0)
		return -1;
	stored = word_size(rd, w, &raw);
	got = load_block(rd, start, stored, raw, tmp, rd->sb.block_size, &why);
	if (got < 0)
		return ff_err_set(err, why.code, "inode %llu: fragment %u: %s",
				  (unsigned long long)in->ref, in->fragment, why.msg);
	if ((uint64_t)in->offset + tail > (uint64_t)got)
		return ff_err_set(err, EIO, "inode %llu: tail of %llu bytes at %u past fragment %u "
				  "(%zd bytes)", (unsigned long long)in->ref,
				  (unsigned long long)tail, in->offset, in->fragment, got);
	memcpy(dst, tmp + in->offset + from, n);
	return 0;
}

int lsq_block_at(struct lsq_rd *rd, const struct lsq_inode *in, uint64_t k, uint64_t *pos,
		 uint32_t *stored, int *raw, struct ff_err *err)
{
	struct blist b = {rd, in, in->tail, lsq_file_blocks(rd, in), {0}, 0, 0};
	uint32_t w = 0;

	*pos = in->start;
	for (uint64_t j = 0; j <= k; j++) {
		if (blist_next(&b, &w, err) < 0)
			return -1;
		*stored = word_size(rd, w, raw);
		if (j < k)
			*pos += *stored;
	}
	return 0;
}

static ssize_t read_range(struct lsq_rd *rd, const struct lsq_inode *in, uint8_t *buf,
			  size_t len, uint64_t off, uint8_t *tmp, struct ff_err *err)
{
	uint64_t bs = rd->sb.block_size, nblocks = lsq_file_blocks(rd, in), pos = in->start;
	struct blist b = {rd, in, in->tail, nblocks, {0}, 0, 0};
	uint64_t k0 = off / bs, done = 0;
	uint32_t w;
	int raw = 0;

	for (uint64_t j = 0; j < k0 && j < nblocks; j++) {
		if (blist_next(&b, &w, err) < 0)
			return -1;
		pos += word_size(rd, w, &raw);
	}
	while (done < len) {
		uint64_t k = (off + done) / bs, from = (off + done) % bs;
		size_t n = (size_t)(bs - from < len - done ? bs - from : len - done);

		if (k >= nblocks) {
			if (copy_tail(rd, in, tmp, buf + done, from, n, err) < 0)
				return -1;
		} else {
			if (blist_next(&b, &w, err) < 0 ||
			    copy_block(rd, in, k, pos, w, tmp, buf + done, from, n, err) < 0)
				return -1;
			pos += word_size(rd, w, &raw);
		}
		done += n;
	}
	return (ssize_t)done;
}

ssize_t lsq_file_read(struct lsq_rd *rd, const struct lsq_inode *in, uint8_t *buf, size_t len,
		      uint64_t off, struct ff_err *err)
{
	uint8_t *tmp;
	ssize_t got;

	len = ff_read_span(in->size, off, len);
	if (!len)
		return 0;
	if (in->size % rd->sb.block_size && in->fragment != LSQ_INVALID_FRAG &&
	    in->fragment >= rd->sb.fragments)
		return ff_err_set(err, EIO, "inode %llu: fragment %u past the fragment table (%u)",
				  (unsigned long long)in->ref, in->fragment, rd->sb.fragments);
	tmp = malloc(rd->sb.block_size);
	if (!tmp)
		return ff_err_set(err, ENOMEM, "out of memory");
	got = read_range(rd, in, buf, len, off, tmp, err);
	free(tmp);
	return got;
}
