/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File and symlink data, in pre-order after the listings: per entry a
 * table of block-end pointers, then each block as its own zlib stream
 * (compress2 at the default level, as mkfs.cramfs' compress() does), an
 * all-zero block with -z stored as nothing (a hole); the next entry
 * starts on a 4-byte boundary.  One entry's table and blocks are kept in
 * memory, then written, so the CRC runs over the bytes in order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "cramfs/inode.h"
#include "cramfs/write_priv.h"

static int emit(struct cw *w, const void *p, size_t len, struct ff_err *err)
{
	if (ff_outfile_write(&w->out, p, len, err))
		return -1;
	w->crc = crc32(w->crc, p, (uInt)len);
	w->pos += len;
	return 0;
}

int cw_zeros(struct cw *w, uint64_t len, struct ff_err *err)
{
	static const uint8_t zero[512];

	while (len) {
		size_t n = len < sizeof(zero) ? (size_t)len : sizeof(zero);

		if (emit(w, zero, n, err))
			return -1;
		len -= n;
	}
	return 0;
}

static int reserve(struct cw *w, size_t need, struct ff_err *err)
{
	size_t cap = w->buf_cap ? w->buf_cap : 65536;
	uint8_t *b;

	if (need <= w->buf_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	b = realloc(w->buf, cap);
	if (!b)
		return ff_err_set(err, ENOMEM, "out of memory (%zu bytes for one file)", cap);
	w->buf = b;
	w->buf_cap = cap;
	return 0;
}

static int all_zero(const uint8_t *p, uint32_t len)
{
	return !p[0] && !memcmp(p, p + 1, len - 1);
}

/* Block i of the entry appended at *used; its end pointer into the table. */
static int one_block(struct cw *w, const struct ff_node *n, struct ff_data **d, uint32_t i,
		     uint32_t size, size_t *used, struct ff_err *err)
{
	uint32_t bs = w->o->blksize, len = size - i * bs < bs ? size - i * bs : bs;
	uLongf zlen = 2 * (uLongf)bs;

	if (cw_content(w, n, d, w->in, len, (uint64_t)i * bs, err))
		return -1;
	if (w->o->holes && all_zero(w->in, len)) {
		w->st->holes++;
	} else {
		if (reserve(w, *used + zlen, err))
			return -1;
		if (compress2(w->buf + *used, &zlen, w->in, len, Z_DEFAULT_COMPRESSION) != Z_OK)
			return ff_err_set(err, EIO, "%s: block %u does not compress into %u bytes",
					  ff_node_name(n), i, 2 * bs);
		*used += zlen;
	}
	if (w->pos + *used > UINT32_MAX)
		return ff_err_set(err, EFBIG, "image larger than 4 GiB");
	ff_put32(w->buf + 4 * i, (uint32_t)(w->pos + *used), w->o->big_endian);
	return 0;
}

static int compress_entry(struct cw *w, const struct ff_node *n, uint32_t size,
			  struct ff_err *err)
{
	uint32_t blocks = (size - 1) / w->o->blksize + 1;
	size_t used = 4 * (size_t)blocks;
	struct ff_data *d = NULL;
	int r = reserve(w, used, err);

	for (uint32_t i = 0; i < blocks && !r; i++)
		r = one_block(w, n, &d, i, size, &used, err);
	if (d)
		ff_data_close(d);
	if (r || emit(w, w->buf, used, err))
		return -1;
	w->st->blocks += blocks;
	return cw_zeros(w, (4 - w->pos % 4) % 4, err);
}

static int data_of(struct cw *w, const struct ff_node *n, struct ff_err *err)
{
	uint32_t size = cw_data_size(w, n);
	const struct ff_node *same;

	if (!size)
		return 0;
	if (cw_find_same(w, n, &same, err))
		return -1;
	if (same) {
		w->e[n->index].offset = w->e[same->index].offset;
		w->st->shared++;
		return 0;
	}
	if (w->pos > CR_OFFSET_MAX)
		return ff_err_set(err, EFBIG, "filesystem too big: data of %s would start at %llu"
				  " (at most %u)", ff_node_name(n), (unsigned long long)w->pos,
				  CR_OFFSET_MAX);
	w->e[n->index].offset = (uint32_t)w->pos;
	return compress_entry(w, n, size, err);
}

/* How many entries have each data size: only those two share are
 * compared. */
static int count_sizes(struct cw *w, struct ff_err *err)
{
	for (const struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		uint32_t size = n->index ? cw_data_size(w, n) : 0;
		uint64_t count = 0;

		if (!size || n == ff_tree_root(w->tree))
			continue;
		ff_hmap_find(&w->sizes, &size, sizeof(size), &count);
		if (ff_hmap_set(&w->sizes, &size, sizeof(size), count + 1))
			return ff_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int cw_write_data(struct cw *w, struct ff_err *err)
{
	const struct ff_node *root = ff_tree_root(w->tree);

	if (count_sizes(w, err))
		return -1;
	for (const struct ff_node *n = ff_tree_next(w->tree, root); n; n = ff_tree_next(w->tree, n))
		if (data_of(w, n, err))
			return ff_err_prefix(err, "%s", ff_node_name(n));
	return 0;
}
