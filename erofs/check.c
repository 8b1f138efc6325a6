/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs check`: the superblock (checksum, size), then every directory
 * from the root (its entries' name offsets, sorting, types, "." and ".."),
 * every inode once (its layout and xattrs), and every file's data read
 * whole, so each extent is mapped inside the image and each pcluster
 * decodes to its length.  Directories are visited from a work list, not
 * by recursion, and each only once, so loops and depth cannot hurt. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hmap.h"
#include "common/problems.h"
#include "common/vec.h"
#include "erofs/reader.h"

#define CHECK_BUF (1u << 20)

struct chk {
	struct er_rd *rd;
	struct ff_problem_sink out;
	struct ff_hmap seen;      /* nid -> links found + 1 */
	struct ff_vec pending;    /* struct dir_ref: directories still to list */
	uint8_t *buf;
	/* the directory being listed */
	uint64_t dir, dir_parent;
	char prev[ER_NAME_LEN];
	size_t prev_len;
	int have_prev;
};

struct dir_ref {
	uint64_t nid, parent;
};

static int push(struct chk *c, uint64_t nid, uint64_t parent)
{
	struct dir_ref d = { nid, parent };

	return ff_vec_push(&c->pending, &d) < 0 ? -ENOMEM : 0;
}

static int count_xattr(void *ctx, const char *name, size_t nlen, const uint8_t *v, size_t vlen)
{
	(void)ctx, (void)name, (void)nlen, (void)v, (void)vlen;
	return 0;
}

/* Where the stored bytes from off end, skipping holes (a sparse file's
 * size costs nothing): 0 when the map failed. */
static uint64_t stored_end(struct chk *c, const struct er_inode *ino, uint64_t *off)
{
	struct ff_err err = {0};
	struct er_map m;
	int ret;

	if (ino->layout == ER_COMPRESSED_FULL || ino->layout == ER_COMPRESSED_COMPACT)
		return ino->size;
	for (;;) {
		if (ino->layout == ER_CHUNK_BASED)
			ret = er_map_chunk(c->rd, ino, *off, &m, &err);
		else
			ret = er_map_flat(c->rd, ino, *off, &m, &err);
		if (ret < 0) {
			ff_problemf(&c->out, "%s", err.msg);
			return 0;
		}
		if (m.flags & ER_MAP_MAPPED)
			return m.la + m.llen;
		*off = m.la + m.llen;
		if (*off >= ino->size)
			return ino->size;
	}
}

/* Reads the file whole: every extent mapped, every pcluster decoded. */
static void check_data(struct chk *c, const struct er_inode *ino)
{
	struct ff_err err = {0};
	uint64_t off = 0, end = 0;

	while (off < ino->size) {
		ssize_t n;

		if (off >= end && !(end = stored_end(c, ino, &off)))
			return;
		if (off >= ino->size)
			return;
		n = er_read(c->rd, ino, c->buf, end - off < CHECK_BUF ? end - off : CHECK_BUF, off,
			    &err);

		if (n <= 0) {
			ff_problemf(&c->out, "%s", n < 0 ? err.msg : "file data ends early");
			return;
		}
		off += (uint64_t)n;
	}
}

/* The first visit of an inode: its layout, xattrs and data. */
static void check_inode(struct chk *c, const struct er_inode *ino)
{
	struct ff_err err = {0};

	if (er_xattr_walk(c->rd, ino, count_xattr, NULL, &err) < 0)
		ff_problemf(&c->out, "%s", err.msg);
	if (S_ISREG(ino->mode) || S_ISLNK(ino->mode))
		check_data(c, ino);
	if (S_ISLNK(ino->mode) && (ino->size == 0 || ino->size > 4095))
		ff_problemf(&c->out, "inode %llu: symlink target of %llu bytes",
			    (unsigned long long)ino->nid, (unsigned long long)ino->size);
}

static int check_dots(struct chk *c, const struct er_dirent *d)
{
	if (d->len == 1 && d->name[0] == '.') {
		if (d->nid != c->dir)
			ff_problemf(&c->out, "directory %llu: \".\" names inode %llu",
				    (unsigned long long)c->dir, (unsigned long long)d->nid);
		return 1;
	}
	if (d->len == 2 && d->name[0] == '.' && d->name[1] == '.') {
		if (d->nid != c->dir_parent)
			ff_problemf(&c->out,
				    "directory %llu: \"..\" names inode %llu, its parent is %llu",
				    (unsigned long long)c->dir, (unsigned long long)d->nid,
				    (unsigned long long)c->dir_parent);
		return 1;
	}
	return 0;
}

static void check_order(struct chk *c, const struct er_dirent *d)
{
	size_t n = d->len < c->prev_len ? d->len : c->prev_len;
	int cmp = memcmp(c->prev, d->name, n);

	if (!cmp)
		cmp = (c->prev_len > d->len) - (c->prev_len < d->len);
	if (c->have_prev && cmp >= 0)
		ff_problemf(&c->out,
			    "directory %llu: entry at %llu \"%.*s\" is not after \"%.*s\" (EROFS "
			    "sorts names)", (unsigned long long)c->dir, (unsigned long long)d->pos,
			    (int)d->len, d->name, (int)c->prev_len, c->prev);
	memcpy(c->prev, d->name, d->len);
	c->prev_len = d->len;
	c->have_prev = 1;
}

static int check_entry(void *ctx, const struct er_dirent *d)
{
	struct chk *c = ctx;
	struct ff_err err = {0};
	struct er_inode ino;
	uint64_t links = 0;

	check_order(c, d);
	if (check_dots(c, d))
		return 0;
	if (er_inode_load(c->rd, d->nid, &ino, &err) < 0) {
		ff_problemf(&c->out, "directory %llu: \"%.*s\": %s", (unsigned long long)c->dir,
			    (int)d->len, d->name, err.msg);
		return 0;
	}
	if (er_mode_of_ftype(d->ftype) != (ino.mode & S_IFMT))
		ff_problemf(&c->out, "directory %llu: \"%.*s\": type %u, inode %llu has mode 0%o",
			    (unsigned long long)c->dir, (int)d->len, d->name, d->ftype,
			    (unsigned long long)d->nid, ino.mode);
	ff_hmap_find(&c->seen, &d->nid, sizeof(d->nid), &links);
	if (ff_hmap_set(&c->seen, &d->nid, sizeof(d->nid), links ? links + 1 : 2) < 0)
		return -ENOMEM;
	if (S_ISDIR(ino.mode) && links)
		ff_problemf(&c->out,
			    "directory %llu: \"%.*s\": directory %llu reached a second time",
			    (unsigned long long)c->dir, (int)d->len, d->name,
			    (unsigned long long)d->nid);
	else if (S_ISDIR(ino.mode))
		return push(c, d->nid, c->dir);
	else if (!links)
		check_inode(c, &ino);
	return 0;
}

static int check_dir(struct chk *c, uint64_t nid, uint64_t parent)
{
	struct ff_err err = {0};
	struct er_inode d;
	int ret;

	if (er_inode_load(c->rd, nid, &d, &err) < 0) {
		ff_problemf(&c->out, "%s", err.msg);
		return 0;
	}
	if (er_xattr_walk(c->rd, &d, count_xattr, NULL, &err) < 0)
		ff_problemf(&c->out, "%s", err.msg);
	c->dir = nid;
	c->dir_parent = parent;
	c->have_prev = 0;
	ret = er_dir_iter(c->rd, &d, 0, check_entry, c, &err);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0)
		ff_problemf(&c->out, "%s", err.msg);
	return 0;
}

static void check_super(struct chk *c)
{
	const struct er_super *sb = &c->rd->sb;
	uint64_t bytes = er_blkpos(c->rd, sb->blocks);

	if (sb->csum_state == 0)
		ff_problemf(&c->out, "superblock: crc32c does not match (0x%08x stored)",
			    sb->checksum);
	if (bytes > c->rd->src->size)
		ff_problemf(&c->out,
			    "superblock: %llu blocks of %u bytes, the image has %llu bytes",
			    (unsigned long long)sb->blocks, sb->blksz,
			    (unsigned long long)c->rd->src->size);
}

long er_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct chk c = { .rd = (struct er_rd *)fs, .out = { fn, ctx, 0 },
			 .pending = FF_VEC_INIT(struct dir_ref) };
	uint64_t root = c.rd->sb.root_nid;
	int ret = -ENOMEM;

	check_super(&c);
	if (!(c.buf = malloc(CHECK_BUF)) || push(&c, root, root) < 0 ||
	    ff_hmap_set(&c.seen, &root, sizeof(root), 2) < 0)
		goto out;
	while (c.pending.len) {
		struct dir_ref d = *FF_VEC_AT(&c.pending, struct dir_ref, --c.pending.len);

		if ((ret = check_dir(&c, d.nid, d.parent)) < 0)
			goto out;
	}
	ret = 0;
out:
	free(c.buf);
	ff_vec_free(&c.pending);
	ff_hmap_clear(&c.seen, NULL);
	return ret < 0 ? ret : c.out.count;
}
