/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over a pre-4.0 SquashFS image.  A
 * handle is an inode reference (block << 16 | offset in the inode table);
 * every name of a hard-linked inode gives the same one.  Nothing but the
 * block caches changes after open, so the operations are thread-safe. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "squashfs_legacy/legacy.h"

#define META_SLOTS 64
#define DATA_SLOTS 16

static struct lsq_rd *R(struct ff_fs *fs)
{
	return (struct lsq_rd *)fs;
}

/* Loads an inode; a damaged one is logged and becomes -EIO. */
static int load(struct ff_fs *fs, uint64_t h, struct lsq_inode *in)
{
	struct ff_err err = {0};

	if (lsq_inode_load(R(fs), h, in, &err) < 0) {
		ff_fs_log(fs, "%s", err.msg);
		return -EIO;
	}
	return 0;
}

static uint64_t lsq_root(struct ff_fs *fs)
{
	return R(fs)->sb.root_inode;
}

struct find {
	const char *name;
	size_t len;
	uint64_t ref;
	int found;
};

static int find_fn(void *ctx, const struct lsq_dirent *e, uint64_t index)
{
	struct find *f = ctx;

	(void)index;
	if (e->len != f->len || memcmp(e->name, f->name, f->len))
		return 0;
	f->ref = e->ref;
	f->found = 1;
	return 1;
}

static int walk(struct ff_fs *fs, const struct lsq_inode *dir, uint64_t start, lsq_dirent_fn fn,
		void *ctx)
{
	struct ff_err err = {0};

	if (lsq_dir_walk(R(fs), dir, start, fn, ctx, &err) < 0) {
		ff_fs_log(fs, "%s", err.msg);
		return -EIO;
	}
	return 0;
}

/* Directories before 2.1 may be unsorted, so the search reads the whole
 * listing rather than stopping at the first larger name. */
static int lsq_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		      uint64_t *handle)
{
	struct lsq_inode d;
	struct find f = {name, len, 0, 0};
	int rc = load(fs, dir, &d);

	if (rc < 0)
		return rc;
	if (d.type != LSQ_DIR)
		return -ENOTDIR;
	if (len == 0 || len > LSQ_NAME_MAX)
		return len ? -ENAMETOOLONG : -ENOENT;
	rc = walk(fs, &d, 0, find_fn, &f);
	if (rc < 0)
		return rc;
	if (!f.found)
		return -ENOENT;
	*handle = f.ref;
	return 0;
}

static uint64_t stored_blocks(const struct lsq_rd *rd, const struct lsq_inode *in)
{
	(void)rd;
	return in->type == LSQ_FILE ? (in->size + 511) / 512 : 0;
}

static int lsq_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	struct lsq_rd *rd = R(fs);
	struct lsq_inode in;
	int rc = load(fs, h, &in);

	if (rc < 0)
		return rc;
	memset(st, 0, sizeof(*st));
	st->ino = lsq_inode_number(rd, &in);
	st->mode = in.mode;
	st->nlink = in.nlink ? in.nlink : in.type == LSQ_DIR ? 2 : 1;
	st->uid = in.uid;
	st->gid = in.gid;
	st->size = in.type == LSQ_FILE || in.type == LSQ_SYMLINK || in.type == LSQ_DIR ? in.size : 0;
	st->blocks = stored_blocks(rd, &in);
	st->mtime = st->atime = st->ctime = in.mtime;
	if (in.type == LSQ_BLKDEV || in.type == LSQ_CHRDEV) {
		st->rdev_major = in.rdev >> 8 & 0xff;
		st->rdev_minor = in.rdev & 0xff;
	}
	return 0;
}

/* Entry types 1..7 are the kinds; 1.x stores 0 for fifos and sockets,
 * whose inode then says which. */
static uint32_t entry_mode(struct ff_fs *fs, const struct lsq_dirent *e)
{
	struct lsq_inode in;

	if (e->type >= LSQ_DIR && e->type <= LSQ_SOCKET)
		return lsq_mode_of_type(e->type);
	return load(fs, e->ref, &in) < 0 ? 0 : in.mode & S_IFMT;
}

struct rdctx {
	struct ff_fs *fs;
	ff_readdir_fn fn;
	void *ctx;
};

static int readdir_fn(void *ctx, const struct lsq_dirent *e, uint64_t index)
{
	struct rdctx *r = ctx;

	return r->fn(r->ctx, e->name, e->len, e->ref, entry_mode(r->fs, e), index + 1);
}

static int lsq_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		       void *ctx)
{
	struct lsq_inode d;
	struct rdctx r = {fs, fn, ctx};
	int rc = load(fs, dir, &d);

	if (rc < 0)
		return rc;
	if (d.type != LSQ_DIR)
		return -ENOTDIR;
	return walk(fs, &d, start, readdir_fn, &r);
}

static ssize_t lsq_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	struct lsq_inode in;
	struct ff_err err = {0};
	ssize_t got;
	int rc = load(fs, h, &in);

	if (rc < 0)
		return rc;
	if (in.type == LSQ_DIR)
		return -EISDIR;
	if (in.type != LSQ_FILE)
		return -EINVAL;
	got = lsq_file_read(R(fs), &in, buf, len, off, &err);
	if (got < 0) {
		ff_fs_log(fs, "%s", err.msg);
		return err.code == ENOMEM ? -ENOMEM : -EIO;
	}
	return got;
}

static ssize_t lsq_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	struct lsq_inode in;
	struct ff_err err = {0};
	size_t n;
	int rc = load(fs, h, &in);

	if (rc < 0)
		return rc;
	if (in.type != LSQ_SYMLINK)
		return -EINVAL;
	n = in.size < cap ? (size_t)in.size : cap;
	if (lsq_meta_read(R(fs), &in.tail, buf, n, &err) < 0) {
		ff_fs_log(fs, "%s", err.msg);
		return -EIO;
	}
	return (ssize_t)in.size;
}

static int lsq_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	struct lsq_rd *rd = R(fs);

	memset(sf, 0, sizeof(*sf));
	sf->block_size = rd->sb.block_size;
	sf->total_bytes = rd->sb.bytes_used;
	sf->image_bytes = rd->src->size;
	sf->inodes = rd->sb.inodes;
	sf->name_max = LSQ_NAME_MAX;
	return 0;
}

static void lsq_close(struct ff_fs *fs)
{
	struct lsq_rd *rd = R(fs);

	if (!rd)
		return;
	lsq_cache_free(rd->meta);
	lsq_cache_free(rd->data);
	free(rd->uids);
	free(rd->gids);
	free(rd->frag_index);
	free(rd->export_index);
	ff_bsrc_unref(rd->src);
	free(rd);
}

static const struct ff_fs_ops lsq_ops = {
	.format = "squashfs",
	.root = lsq_root,
	.lookup = lsq_lookup,
	.getattr = lsq_getattr,
	.readdir = lsq_readdir,
	.read = lsq_read,
	.readlink = lsq_readlink,
	.listxattr = ff_fs_no_listxattr, /* these layouts store no xattrs */
	.getxattr = ff_fs_no_getxattr,
	.statfs = lsq_statfs,
	.info = lsq_info,
	.check = lsq_check,
	.close = lsq_close,
};

/* The first compressed inode table block says which LZMA form (if any)
 * the image uses, and for raw streams with which lc/lp/pb. */
static int detect_codec(struct lsq_rd *rd, struct ff_err *err)
{
	uint8_t hdr[2], in[LSQ_META_SIZE];
	unsigned skip = rd->sb.flags & LSQ_FLAG_CHECK ? 3 : 2;
	uint64_t pos = rd->sb.inode_table;
	uint32_t word, stored;

	if (lsq_pread(rd, hdr, 2, pos, err) < 0)
		return -1;
	word = rd->sb.big ? ff_get_be16(hdr) : ff_get_le16(hdr);
	stored = word & 0x7fff;
	if (word & 0x8000)
		return 0;
	if (!stored || pos + skip + stored > rd->sb.dir_table)
		return ff_err_set(err, EIO, "inode table: first block of %u bytes past the table "
				  "(ends at %llu)", stored, (unsigned long long)rd->sb.dir_table);
	if (lsq_pread(rd, in, stored, pos + skip, err) < 0)
		return -1;
	/* More blocks after it: it was filled to 8 KiB. */
	return lsq_codec_detect(&rd->codec, in, stored, LSQ_META_SIZE,
				pos + skip + stored < rd->sb.dir_table ? LSQ_META_SIZE : 0, err);
}

static int open_image(struct lsq_rd *rd, struct ff_err *err)
{
	uint8_t buf[LSQ_SUPER_MAX];
	size_t n = rd->src->size < sizeof(buf) ? (size_t)rd->src->size : sizeof(buf);
	struct lsq_inode root;

	if (ff_bsrc_read(rd->src, buf, n, 0, err) < 0 ||
	    lsq_super_decode(buf, n, rd->src->size, &rd->sb, err) < 0)
		return -1;
	rd->meta = lsq_cache_new(META_SLOTS, LSQ_META_SIZE);
	rd->data = lsq_cache_new(DATA_SLOTS, rd->sb.block_size);
	if (!rd->meta || !rd->data)
		return ff_err_set(err, ENOMEM, "out of memory");
	lsq_codec_init(&rd->codec, rd->sb.block_size);
	if (lsq_tables_load(rd, err) < 0 || detect_codec(rd, err) < 0 ||
	    lsq_inode_load(rd, rd->sb.root_inode, &root, err) < 0)
		return -1;
	if (root.type != LSQ_DIR)
		return ff_err_set(err, EIO, "root inode %llu is not a directory",
				  (unsigned long long)rd->sb.root_inode);
	return 0;
}

int lsq_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
	     struct ff_err *err)
{
	struct lsq_rd *rd = calloc(1, sizeof(*rd));

	*fs = NULL;
	if (!rd)
		return ff_err_set(err, ENOMEM, "out of memory");
	rd->src = ff_bsrc_ref(src);
	rd->base.ops = &lsq_ops;
	rd->base.log = opts ? opts->log : NULL;
	rd->base.log_ctx = opts ? opts->log_ctx : NULL;
	if (open_image(rd, err) < 0) {
		lsq_close(&rd->base);
		return -1;
	}
	*fs = &rd->base;
	return 0;
}
