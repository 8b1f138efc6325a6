/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory blocks: 12-byte dirents (nid, name offset, file type) at the
 * start of each block, then their names, unterminated (the last one ends
 * at the block's end or its first zero byte).  The first dirent's name
 * offset says how many dirents the block holds.  Names are sorted, inside
 * a block and from block to block, so a lookup searches. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "erofs/reader.h"

struct dblock {
	uint8_t *buf;
	size_t len;       /* bytes of this block in the directory */
	unsigned count;   /* dirents in it */
	uint64_t index;
};

static int block_load(struct er_rd *rd, const struct er_inode *dir, uint64_t b,
		      struct dblock *db, struct ff_err *err)
{
	uint64_t off = er_blkpos(rd, b);
	uint64_t len = dir->size - off < rd->sb.blksz ? dir->size - off : rd->sb.blksz;
	ssize_t got = er_read(rd, dir, db->buf, (size_t)len, off, err);
	unsigned first;

	if (got < 0)
		return (int)got;
	if ((uint64_t)got != len)
		return ER_BAD(err, "directory %llu: block %llu short", (unsigned long long)dir->nid,
			      (unsigned long long)b);
	db->len = (size_t)len;
	db->index = b;
	first = len >= ER_DIRENT_SIZE ? ff_get_le16(db->buf + 8) : 0;
	if (first < ER_DIRENT_SIZE || first >= len || first % ER_DIRENT_SIZE)
		return ER_BAD(err, "directory %llu: block %llu: first name offset %u in a %llu-byte "
			      "block", (unsigned long long)dir->nid, (unsigned long long)b, first,
			      (unsigned long long)len);
	db->count = first / ER_DIRENT_SIZE;
	return 0;
}

static int entry(const struct er_inode *dir, const struct dblock *db, unsigned i,
		 struct er_dirent *d, struct ff_err *err)
{
	const uint8_t *de = db->buf + (size_t)i * ER_DIRENT_SIZE;
	unsigned off = ff_get_le16(de + 8), end;

	if (i + 1 < db->count) {
		end = ff_get_le16(de + ER_DIRENT_SIZE + 8);
	} else {
		end = off;
		while (end < db->len && db->buf[end])
			end++;
	}
	if (off < db->count * ER_DIRENT_SIZE || end > db->len || end <= off ||
	    end - off > ER_NAME_LEN)
		return ER_BAD(err, "directory %llu: block %llu: entry %u: name at %u..%u in a "
			      "%zu-byte block", (unsigned long long)dir->nid,
			      (unsigned long long)db->index, i, off, end, db->len);
	d->name = (const char *)db->buf + off;
	d->len = end - off;
	d->nid = ff_get_le64(de);
	d->ftype = de[10];
	d->pos = 0;
	return 0;
}

static uint64_t dir_blocks(const struct er_rd *rd, const struct er_inode *dir)
{
	return (dir->size >> rd->sb.blkszbits) + ((dir->size & (rd->sb.blksz - 1)) != 0);
}

static int dir_start(struct er_rd *rd, const struct er_inode *dir, struct dblock *db,
		     struct ff_err *err)
{
	if (!S_ISDIR(dir->mode))
		return -ENOTDIR;
	db->buf = malloc(rd->sb.blksz);
	if (!db->buf)
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	return 0;
}

int er_dir_iter(struct er_rd *rd, const struct er_inode *dir, uint64_t start, er_dirent_fn fn,
		void *ctx, struct ff_err *err)
{
	struct dblock db;
	struct er_dirent d;
	uint64_t nb = dir_blocks(rd, dir);
	unsigned i = (unsigned)((start & (rd->sb.blksz - 1)) / ER_DIRENT_SIZE);
	int ret;

	if ((ret = dir_start(rd, dir, &db, err)) < 0)
		return ret;
	for (uint64_t b = start >> rd->sb.blkszbits; b < nb; b++, i = 0) {
		if ((ret = block_load(rd, dir, b, &db, err)) < 0)
			break;
		for (; i < db.count; i++) {
			if ((ret = entry(dir, &db, i, &d, err)) < 0)
				goto out;
			d.pos = er_blkpos(rd, b) + (uint64_t)i * ER_DIRENT_SIZE;
			if ((ret = fn(ctx, &d)) != 0)
				goto out;
		}
	}
out:
	free(db.buf);
	return ret;
}

static int namecmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

enum { FOUND, AFTER, BETWEEN, BEFORE };

/* Where name falls against one block's names, or -errno. */
static int block_search(const struct er_inode *dir, const struct dblock *db, const char *name,
			size_t len, uint64_t *nid, struct ff_err *err)
{
	unsigned lo = 0, hi = db->count;
	struct er_dirent d;
	int ret, c;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if ((ret = entry(dir, db, mid, &d, err)) < 0)
			return ret;
		c = namecmp(name, len, d.name, d.len);
		if (!c) {
			*nid = d.nid;
			return FOUND;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo == 0 ? BEFORE : lo == db->count ? AFTER : BETWEEN;
}

int er_dir_lookup(struct er_rd *rd, const struct er_inode *dir, const char *name, size_t len,
		  uint64_t *nid, struct ff_err *err)
{
	uint64_t lo = 0, hi = dir_blocks(rd, dir);
	struct dblock db;
	int ret = -ENOENT;

	if ((ret = dir_start(rd, dir, &db, err)) < 0)
		return ret;
	ret = -ENOENT;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		int r;

		if ((r = block_load(rd, dir, mid, &db, err)) < 0) {
			ret = r;
			break;
		}
		r = block_search(dir, &db, name, len, nid, err);
		if (r == FOUND || r < 0) {
			ret = r;
			break;
		}
		if (r == BETWEEN)
			break;
		if (r == AFTER)
			lo = mid + 1;
		else
			hi = mid;
	}
	free(db.buf);
	return ret;
}
