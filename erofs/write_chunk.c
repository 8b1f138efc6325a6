/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Chunk-based files (--chunksize): the file cut into chunks of a power of
 * two bytes, each chunk's blocks contiguous at the block address its
 * 4-byte entry in the block map gives (the map right behind the inode
 * and its xattrs); a chunk of zeros only is a hole, the null address
 * (0xffffffff), and takes no block. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/endian.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

/* One chunk at off: a hole, or its blocks at the next free block. */
static int one_chunk(struct ew *w, struct ew_ino *e, struct ff_data *d, uint8_t *buf,
		     uint64_t off, uint8_t *entry, struct ff_err *err)
{
	uint32_t cs = w->o->chunksize;
	size_t len = e->size - off < cs ? (size_t)(e->size - off) : cs;
	uint32_t blks = (uint32_t)((len + w->blksz - 1) >> w->blkbits);

	if (ew_read_at(d, e, buf, len, off, err))
		return -1;
	if (ff_is_zero(buf, len)) {
		ff_put_le32(entry, ER_NULL_ADDR32);
		return 0;
	}
	ff_put_le32(entry, w->next_blk);
	if (ff_outfile_write(&w->out, buf, len, err) || ff_outfile_pad(&w->out, w->blksz, err))
		return -1;
	w->next_blk += blks;
	e->nblocks += blks;
	return 0;
}

int ew_write_chunked(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	struct ff_data *d = ff_tree_open_data(w->tree, e->n, err);
	uint8_t *buf = malloc(w->o->chunksize), *map = calloc(1, e->zmeta_len);
	int r = 0;

	if (!d || !buf || !map) {
		free(buf);
		free(map);
		ff_data_close(d);
		return d ? ff_err_set(err, ENOMEM, "chunks: out of memory") : -1;
	}
	e->blkaddr = w->next_blk;
	for (uint64_t off = 0, k = 0; off < e->size && !r; off += w->o->chunksize, k++)
		r = one_chunk(w, e, d, buf, off, map + k * 4, err);
	free(buf);
	ff_data_close(d);
	if (r) {
		free(map);
		return -1;
	}
	e->zmeta = map;
	return 0;
}
