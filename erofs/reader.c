/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over an EROFS image.  A handle is the
 * inode's nid; inodes are decoded again at each call (one small read),
 * and the only shared state, the decoded-pcluster cache, has its mutex,
 * so every operation is safe from several threads. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/xattr_query.h"
#include "erofs/reader.h"

#define ER_CACHE_DEFAULT (32u << 20)

static struct er_rd *R(struct ff_fs *fs)
{
	return (struct er_rd *)fs;
}

int er_pread(const struct er_rd *rd, void *buf, size_t len, uint64_t off, const char *what,
	     uint64_t nid, struct ff_err *err)
{
	uint64_t size = rd->src->size;

	if (off > size || len > size - off)
		return ER_BAD(err, "inode %llu: %s: %zu bytes at offset %llu past the end of the "
			      "image (%llu bytes)", (unsigned long long)nid, what, len,
			      (unsigned long long)off, (unsigned long long)size);
	if (ff_bsrc_read(rd->src, buf, len, off, err) < 0)
		return -EIO;
	return 0;
}

/* A failed call's message goes to the log (damage, or a layout this
 * reader does not implement); plain answers like -ENOENT do not. */
static int logged(struct ff_fs *fs, int ret, const struct ff_err *err)
{
	if ((ret == -EIO || ret == -EOPNOTSUPP || ret == -ENOMEM) && err->msg[0])
		ff_fs_log(fs, "%s", err->msg);
	return ret;
}

static int load(struct ff_fs *fs, uint64_t h, struct er_inode *ino)
{
	struct ff_err err = {0};

	return logged(fs, er_inode_load(R(fs), h, ino, &err), &err);
}

static uint64_t er_root(struct ff_fs *fs)
{
	return R(fs)->sb.root_nid;
}

static int er_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	struct ff_err err = {0};
	struct er_inode d;
	int ret = load(fs, dir, &d);

	if (ret < 0)
		return ret;
	if (!S_ISDIR(d.mode))
		return -ENOTDIR;
	if (!len || len > ER_NAME_LEN)
		return -ENOENT;
	return logged(fs, er_dir_lookup(R(fs), &d, name, len, handle, &err), &err);
}

static int er_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	const struct er_rd *rd = R(fs);
	struct er_inode i;
	int ret = load(fs, h, &i);

	if (ret < 0)
		return ret;
	memset(st, 0, sizeof(*st));
	st->ino = i.nid;
	st->mode = i.mode;
	st->nlink = i.nlink;
	st->uid = i.uid;
	st->gid = i.gid;
	st->size = i.size;
	if (i.layout == ER_COMPRESSED_FULL || i.layout == ER_COMPRESSED_COMPACT)
		st->blocks = (uint64_t)i.cblocks << (rd->sb.blkszbits - 9);
	else
		st->blocks = ((i.size + rd->sb.blksz - 1) >> rd->sb.blkszbits)
			     << (rd->sb.blkszbits - 9);
	st->mtime = st->atime = st->ctime = i.mtime;
	st->rdev_major = i.rdev_major;
	st->rdev_minor = i.rdev_minor;
	return 0;
}

struct rd_ctx {
	ff_readdir_fn fn;
	void *ctx;
};

static int readdir_one(void *ctx, const struct er_dirent *d)
{
	struct rd_ctx *c = ctx;

	if ((d->len == 1 && d->name[0] == '.') ||
	    (d->len == 2 && d->name[0] == '.' && d->name[1] == '.'))
		return 0;
	return c->fn(c->ctx, d->name, d->len, d->nid, er_mode_of_ftype(d->ftype),
		     d->pos + ER_DIRENT_SIZE) ? 1 : 0;
}

static int er_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	struct rd_ctx c = { fn, ctx };
	struct ff_err err = {0};
	struct er_inode d;
	int ret = load(fs, dir, &d);

	if (ret < 0)
		return ret;
	if (!S_ISDIR(d.mode))
		return -ENOTDIR;
	ret = er_dir_iter(R(fs), &d, start, readdir_one, &c, &err);
	return ret > 0 ? 0 : logged(fs, ret, &err);
}

static ssize_t er_fs_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	struct ff_err err = {0};
	struct er_inode i;
	int ret = load(fs, h, &i);
	ssize_t n;

	if (ret < 0)
		return ret;
	if (S_ISDIR(i.mode))
		return -EISDIR;
	if (!S_ISREG(i.mode))
		return -EINVAL;
	n = er_read(R(fs), &i, buf, len, off, &err);
	return n < 0 ? logged(fs, (int)n, &err) : n;
}

static ssize_t er_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	struct ff_err err = {0};
	struct er_inode i;
	int ret = load(fs, h, &i);
	ssize_t n;

	if (ret < 0)
		return ret;
	if (!S_ISLNK(i.mode))
		return -EINVAL;
	if (i.size > 65535) {
		ff_err_set(&err, EIO, "inode %llu: symlink target of %llu bytes",
			   (unsigned long long)h, (unsigned long long)i.size);
		return logged(fs, -EIO, &err);
	}
	n = er_read(R(fs), &i, buf, cap < i.size ? cap : (size_t)i.size, 0, &err);
	return n < 0 ? logged(fs, (int)n, &err) : (ssize_t)i.size;
}

static int er_xattrs(struct ff_fs *fs, uint64_t h, ff_xattr_visit_fn visit, void *vctx)
{
	struct ff_err err = {0};
	struct er_inode i;
	int ret = load(fs, h, &i);

	if (ret < 0)
		return ret;
	return logged(fs, er_xattr_walk(R(fs), &i, visit, vctx, &err), &err);
}

static int er_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	const struct er_rd *rd = R(fs);

	memset(sf, 0, sizeof(*sf));
	sf->block_size = rd->sb.blksz;
	sf->total_bytes = er_blkpos(rd, rd->sb.blocks);
	sf->image_bytes = rd->src->size;
	sf->inodes = rd->sb.inos;
	sf->name_max = ER_NAME_LEN;
	return 0;
}

static void er_close(struct ff_fs *fs)
{
	struct er_rd *rd = R(fs);

	er_pcache_free(&rd->cache);
	free(rd->prefixes);
	ff_bsrc_unref(rd->src);
	free(rd);
}

static const struct ff_fs_ops er_ops = {
	.format = "erofs",
	.root = er_root,
	.lookup = er_lookup,
	.getattr = er_getattr,
	.readdir = er_readdir,
	.read = er_fs_read,
	.readlink = er_readlink,
	.xattr_walk = er_xattrs,
	.listxattr = ff_xattr_walk_list,
	.getxattr = ff_xattr_walk_get,
	.statfs = er_statfs,
	.info = er_info,
	.check = er_check,
	.close = er_close,
};

static int open_image(struct er_rd *rd, const struct ff_open_opts *opts, struct ff_err *err)
{
	size_t budget = opts && opts->cache_bytes ? (size_t)opts->cache_bytes : ER_CACHE_DEFAULT;
	struct er_inode root;
	int ret;

	if ((ret = er_super_read(rd->src, &rd->sb, err)) < 0)
		return ret;
	if ((ret = er_inode_load(rd, rd->sb.root_nid, &root, err)) < 0)
		return ret;
	if (!S_ISDIR(root.mode))
		return ER_BAD(err, "root inode %llu: mode 0%o is not a directory",
			      (unsigned long long)rd->sb.root_nid, root.mode);
	if ((ret = er_prefixes_load(rd, err)) < 0)
		return ret;
	if (er_pcache_init(&rd->cache, budget) < 0)
		return ff_err_set(err, ENOMEM, "out of memory"), -ENOMEM;
	return 0;
}

int ff_erofs_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		      struct ff_err *err)
{
	struct er_rd *rd = calloc(1, sizeof(*rd));

	*fs = NULL;
	if (!rd)
		return ff_err_set(err, ENOMEM, "out of memory");
	rd->fs.ops = &er_ops;
	rd->fs.log = opts ? opts->log : NULL;
	rd->fs.log_ctx = opts ? opts->log_ctx : NULL;
	rd->src = ff_bsrc_ref(src);
	if (open_image(rd, opts, err) < 0) {
		ff_err_prefix(err, "%s", src->name ? src->name : "EROFS image");
		er_close(&rd->fs);
		return -1;
	}
	*fs = &rd->fs;
	return 0;
}
