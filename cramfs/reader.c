/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over a CramFS image.  The image is
 * immutable and read through the byte source; the one shared thing, the
 * last block decoded (sequential reads of less than a block would
 * otherwise decompress it again each time), is guarded by the mutex. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cramfs/reader.h"

static struct cr_fs *C(struct ff_fs *fs)
{
	return (struct cr_fs *)fs;
}

static int node(struct ff_fs *fs, uint64_t h, struct cr_inode *in)
{
	struct ff_err err = { 0, "" };

	if (cr_node(C(fs), h, in, &err) == 0)
		return 0;
	if (err.code == ENOENT)
		return -ENOENT;
	ff_fs_log(fs, "inode at %llu: %s", (unsigned long long)h, err.msg);
	return -EIO;
}

static uint64_t cr_root(struct ff_fs *fs)
{
	return cr_root_handle(C(fs));
}

struct find {
	const char *name;
	size_t len;
	uint64_t handle;
	int found;
};

static int find_fn(void *ctx, const struct cr_dirent *e)
{
	struct find *f = ctx;

	if (e->len != f->len || memcmp(e->name, f->name, f->len))
		return 0;
	f->handle = e->handle;
	f->found = 1;
	return 1;
}

static int dir_walk(struct ff_fs *fs, uint64_t dir, uint64_t start, cr_dirent_fn fn, void *ctx)
{
	struct ff_err err = { 0, "" };
	struct cr_inode in;
	int r = node(fs, dir, &in);

	if (r)
		return r;
	if (!S_ISDIR(in.mode))
		return -ENOTDIR;
	if (cr_dir_walk(C(fs), dir, &in, start, fn, ctx, &err) == 0)
		return 0;
	ff_fs_log(fs, "%s", err.msg);
	return err.code == ENOMEM ? -ENOMEM : -EIO;
}

static int cr_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	struct find f = { name, len, 0, 0 };
	int r = dir_walk(fs, dir, 0, find_fn, &f);

	if (r)
		return r;
	if (!f.found)
		return -ENOENT;
	*handle = f.handle;
	return 0;
}

static int cr_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	struct cr_inode in;
	int r = node(fs, h, &in);

	if (r)
		return r;
	memset(st, 0, sizeof(*st));
	/* cramfs stores no inode numbers; the inode's place is unique. */
	st->ino = h;
	st->mode = in.mode;
	st->nlink = 1;
	st->uid = in.uid;
	st->gid = in.gid;
	if (S_ISCHR(in.mode) || S_ISBLK(in.mode))
		cr_rdev_decode(in.size, &st->rdev_major, &st->rdev_minor);
	else if (S_ISREG(in.mode) || S_ISLNK(in.mode) || S_ISDIR(in.mode))
		st->size = in.size;
	if (S_ISREG(in.mode))
		st->blocks = ((uint64_t)in.size + 511) / 512;
	return 0;
}

struct list {
	ff_readdir_fn fn;
	void *ctx;
};

static int list_fn(void *ctx, const struct cr_dirent *e)
{
	struct list *l = ctx;

	return l->fn(l->ctx, e->name, e->len, e->handle, e->in.mode, e->next);
}

static int cr_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	struct list l = { fn, ctx };

	return dir_walk(fs, dir, start, list_fn, &l);
}

/* Block i of a file into out, through the one-block cache. */
static int get_block(struct ff_fs *fs, uint64_t h, const struct cr_inode *in, uint32_t i,
		     uint8_t *out, uint32_t *got)
{
	struct cr_fs *c = C(fs);
	struct ff_err err = { 0, "" };
	int hit;

	pthread_mutex_lock(&c->lock);
	hit = c->cache && c->cache_handle == h && c->cache_block == i;
	if (hit) {
		memcpy(out, c->cache, c->cache_len);
		*got = c->cache_len;
	}
	pthread_mutex_unlock(&c->lock);
	if (hit)
		return 0;
	if (cr_block_read(c, in, i, out, got, &err)) {
		ff_fs_log(fs, "inode at %llu: %s", (unsigned long long)h, err.msg);
		return err.code == ENOMEM ? -ENOMEM : -EIO;
	}
	pthread_mutex_lock(&c->lock);
	if (!c->cache)
		c->cache = malloc(c->blksize);
	if (c->cache) {
		memcpy(c->cache, out, *got);
		c->cache_handle = h;
		c->cache_block = i;
		c->cache_len = *got;
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}

static ssize_t read_data(struct ff_fs *fs, uint64_t h, const struct cr_inode *in, uint8_t *buf,
			 size_t len, uint64_t off)
{
	uint32_t bs = C(fs)->blksize;
	uint8_t *blk = malloc(bs);
	size_t done = 0;

	if (!blk)
		return -ENOMEM;
	while (done < len) {
		uint64_t pos = off + done;
		uint32_t i = (uint32_t)(pos / bs), in_blk = (uint32_t)(pos % bs), got;
		size_t n;
		int r = get_block(fs, h, in, i, blk, &got);

		if (r) {
			free(blk);
			return r;
		}
		n = got > in_blk ? got - in_blk : 0;
		n = n < len - done ? n : len - done;
		if (!n)
			break;
		memcpy(buf + done, blk + in_blk, n);
		done += n;
	}
	free(blk);
	return (ssize_t)done;
}

static ssize_t cr_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	struct cr_inode in;
	int r = node(fs, h, &in);

	if (r)
		return r;
	if (S_ISDIR(in.mode))
		return -EISDIR;
	if (!S_ISREG(in.mode))
		return -EINVAL;
	len = ff_read_span(in.size, off, len);
	if (!len)
		return 0;
	return read_data(fs, h, &in, buf, len, off);
}

static ssize_t cr_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	struct cr_inode in;
	uint8_t *tmp;
	ssize_t n;
	int r = node(fs, h, &in);

	if (r)
		return r;
	if (!S_ISLNK(in.mode))
		return -EINVAL;
	tmp = malloc(in.size ? in.size : 1);
	if (!tmp)
		return -ENOMEM;
	n = read_data(fs, h, &in, tmp, in.size, 0);
	if (n >= 0 && (uint32_t)n != in.size) {
		ff_fs_log(fs, "symlink at %llu: target of %zd bytes, size says %u",
			  (unsigned long long)h, n, in.size);
		n = -EIO;
	}
	if (n >= 0)
		memcpy(buf, tmp, (size_t)n < cap ? (size_t)n : cap);
	free(tmp);
	return n;
}

static int cr_listxattr(struct ff_fs *fs, uint64_t h, ff_xattr_fn fn, void *ctx)
{
	struct cr_inode in;

	(void)fn;
	(void)ctx;
	return node(fs, h, &in); /* cramfs has no extended attributes */
}

static ssize_t cr_getxattr(struct ff_fs *fs, uint64_t h, const char *name, void *buf,
			   size_t cap)
{
	struct cr_inode in;
	int r = node(fs, h, &in);

	(void)name;
	(void)buf;
	(void)cap;
	return r ? r : -ENODATA;
}

static int cr_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	struct cr_fs *c = C(fs);

	memset(sf, 0, sizeof(*sf));
	sf->block_size = c->blksize;
	sf->total_bytes = c->span;
	sf->image_bytes = c->src->size;
	sf->inodes = c->sb.flags & CR_FLAG_FSID_V2 ? c->sb.files : 0;
	sf->name_max = CR_NAME_MAX;
	return 0;
}

static void cr_close(struct ff_fs *fs)
{
	struct cr_fs *c = C(fs);

	pthread_mutex_destroy(&c->lock);
	ff_bsrc_unref(c->src);
	free(c->cache);
	free(c);
}

static const struct ff_fs_ops cr_ops = {
	.format = "cramfs",
	.root = cr_root,
	.lookup = cr_lookup,
	.getattr = cr_getattr,
	.readdir = cr_readdir,
	.read = cr_read,
	.readlink = cr_readlink,
	.listxattr = cr_listxattr,
	.getxattr = cr_getxattr,
	.statfs = cr_statfs,
	.info = cr_info,
	.check = cr_check,
	.open_problems = cr_open_problems,
	.close = cr_close,
};

static void pick_blksize(struct cr_fs *c, const struct ff_open_opts *opts)
{
	uint32_t given = opts ? opts->flash.page_size : 0;

	if (given >= CR_BLOCK_MIN && given <= CR_BLOCK_MAX && !(given & (given - 1))) {
		c->blksize = given;
		c->blksize_from = "given";
		return;
	}
	c->blksize = 4096;
	c->blksize = cr_detect_blksize(c);
	c->blksize_from = c->blksize ? "detected" : "default";
	if (!c->blksize)
		c->blksize = 4096;
}

int ff_cramfs_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		   struct ff_err *err)
{
	struct cr_fs *c = calloc(1, sizeof(*c));

	*fs = NULL;
	if (!c)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (cr_super_read(src, &c->sb, err)) {
		free(c);
		return ff_err_prefix(err, "%s", src->name);
	}
	c->fs.ops = &cr_ops;
	c->fs.log = opts ? opts->log : NULL;
	c->fs.log_ctx = opts ? opts->log_ctx : NULL;
	c->src = ff_bsrc_ref(src);
	c->span = cr_super_span(&c->sb, src->size);
	c->crc = c->sb.flags & CR_FLAG_FSID_V2 ? CR_CRC_UNKNOWN : CR_CRC_NONE;
	pthread_mutex_init(&c->lock, NULL);
	pick_blksize(c, opts);
	*fs = &c->fs;
	return 0;
}
