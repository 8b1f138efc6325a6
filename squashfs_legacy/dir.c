/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory listings in the directory table: runs of entries after a
 * header naming the inode table block all of them live in.
 *   1.x, 2.x header (4 bytes): count - 1 (8 bits), block (24)
 *            entry (3 bytes):  offset (13), type (3), name length - 1 (8)
 *   3.x header (9 bytes):      count - 1 (8), block (32), inode number (32)
 *            entry (5 bytes):  offset (13), type (3), name length - 1 (8),
 *                              inode number delta (16, signed)
 * The name follows each entry.  A directory inode gives the listing's
 * length, which in 3.x counts 3 bytes more for "." and "..". */
#include <errno.h>

#include "squashfs_legacy/legacy.h"

struct walk {
	struct lsq_rd *rd;
	struct lsq_mpos p;
	uint64_t bytes, total;
	const struct lsq_inode *dir;
};

static int read_entry(struct walk *w, uint64_t block, uint32_t inum, struct lsq_dirent *e,
		      struct ff_err *err)
{
	int v3 = w->rd->sb.major == 3, big = w->rd->sb.big;
	uint8_t h[5];
	unsigned len = v3 ? 5 : 3;

	if (lsq_meta_read(w->rd, &w->p, h, len, err) < 0)
		return -1;
	e->ref = block << 16 | lsq_bits(h, 0, 13, big);
	e->type = (int)lsq_bits(h, 13, 3, big);
	e->len = (size_t)lsq_bits(h, 16, 8, big) + 1;
	e->ino = v3 ? (uint32_t)(inum + lsq_sbits(h, 24, 16, big)) : 0;
	w->bytes += len + e->len;
	if (w->bytes > w->total)
		return ff_err_set(err, EIO, "directory %llu: entry runs past the listing's %llu "
				  "bytes", (unsigned long long)w->dir->ref,
				  (unsigned long long)w->total);
	if (lsq_meta_read(w->rd, &w->p, e->name, e->len, err) < 0)
		return -1;
	e->name[e->len] = 0;
	return 0;
}

int lsq_dir_walk(struct lsq_rd *rd, const struct lsq_inode *dir, uint64_t start, lsq_dirent_fn fn,
		 void *ctx, struct ff_err *err)
{
	int v3 = rd->sb.major == 3, big = rd->sb.big;
	struct walk w = {rd, {rd->sb.dir_table + dir->start, dir->offset, rd->dir_end}, 0,
			 lsq_dir_bytes(rd, dir), dir};
	uint64_t index = 0;
	struct lsq_dirent e;

	while (w.bytes < w.total) {
		uint8_t h[9];
		unsigned hlen = v3 ? 9 : 4, count;
		uint64_t block;
		uint32_t inum;

		if (lsq_meta_read(rd, &w.p, h, hlen, err) < 0)
			return -1;
		count = (unsigned)lsq_bits(h, 0, 8, big) + 1;
		block = lsq_bits(h, 8, v3 ? 32 : 24, big);
		inum = v3 ? (uint32_t)lsq_bits(h, 40, 32, big) : 0;
		w.bytes += hlen;
		for (unsigned i = 0; i < count; i++, index++) {
			if (read_entry(&w, block, inum, &e, err) < 0)
				return -1;
			if (index >= start && fn(ctx, &e, index))
				return 0;
		}
	}
	return 0;
}
