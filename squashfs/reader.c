/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Opening a SquashFS image and the common/fs.h operations on it.  The
 * per-structure work lives in the other *_reader.c files. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fd_size.h"
#include "common/pool.h"
#include "common/warn.h"
#include "common/xattr_query.h"
#include "squashfs/fs_reader.h"
#include "squashfs/reader.h"

#define DEFAULT_CACHE (64u << 20)

int ff_squashfs_probe(const uint8_t *buf, size_t len)
{
	return sqfs_magic_order(buf, len) >= 0;
}

int ff_squashfs_probe_super(const uint8_t *buf, size_t len, uint64_t avail)
{
	struct sqfs_super sb;

	if (len < SQFS_SUPER_SIZE || !ff_squashfs_probe(buf, len) ||
	    sqfs_super_decode(buf, &sb, NULL) < 0 || sb.bytes_used > avail)
		return 0;
	return sb.inode_table < sb.dir_table && sb.dir_table < sb.bytes_used &&
	       sb.id_table < sb.bytes_used;
}

int sqfs_fail(struct sqfs_rd *rd, const struct ff_err *err)
{
	switch (err->code) {
	case ENOTDIR: case EISDIR: case ENOENT: case ENOMEM: case EAGAIN:
		return -err->code;
	default:
		ff_fs_log(&rd->base, "%s", err->msg);
		return -EIO;
	}
}

static struct sqfs_rd *rd_of(struct ff_fs *fs)
{
	return (struct sqfs_rd *)fs;
}

static uint64_t op_root(struct ff_fs *fs)
{
	return rd_of(fs)->sb.root_inode;
}

static int op_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct ff_err err = {0};
	struct sqfs_node n;
	int ret;

	if (sqfs_node_load(rd, dir, &n, &err) < 0)
		return sqfs_fail(rd, &err);
	if (len == 1 && name[0] == '.' && sqfs_basic_type(n.in.type) == SQFS_DIR) {
		*handle = dir;
		return 0;
	}
	ret = sqfs_dir_find(rd, &n, name, len, handle, &err);
	if (ret < 0)
		return sqfs_fail(rd, &err);
	return ret ? -ENOENT : 0;
}

static int op_getattr(struct ff_fs *fs, uint64_t handle, struct ff_stat *st)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct ff_err err = {0};
	struct sqfs_node n;

	if (sqfs_node_load(rd, handle, &n, &err) < 0 || sqfs_node_stat(rd, &n, st, &err) < 0)
		return sqfs_fail(rd, &err);
	return 0;
}

struct readdir_ctx {
	ff_readdir_fn fn;
	void *ctx;
};

static int readdir_cb(void *ctx, const char *name, size_t len, uint64_t ref, uint32_t ino,
		      int type, uint64_t cookie)
{
	static const uint32_t fmt[] = {0, S_IFDIR, S_IFREG, S_IFLNK, S_IFBLK, S_IFCHR,
				       S_IFIFO, S_IFSOCK};
	struct readdir_ctx *rc = ctx;

	(void)ino;
	return rc->fn(rc->ctx, name, len, ref, fmt[type], cookie);
}

static int op_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct readdir_ctx rc = {fn, ctx};
	struct ff_err err = {0};
	struct sqfs_node n;

	if (sqfs_node_load(rd, dir, &n, &err) < 0 ||
	    sqfs_dir_iterate(rd, &n, start, readdir_cb, &rc, &err) < 0)
		return sqfs_fail(rd, &err);
	return 0;
}

static ssize_t file_read(struct ff_fs *fs, uint64_t handle, void *buf, size_t len,
			 uint64_t off, int nowait)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct ff_err err = {0};
	ssize_t n = sqfs_file_read(rd, handle, buf, len, off, nowait, &err);

	return n < 0 ? sqfs_fail(rd, &err) : n;
}

static ssize_t op_read(struct ff_fs *fs, uint64_t handle, void *buf, size_t len, uint64_t off)
{
	return file_read(fs, handle, buf, len, off, 0);
}

static ssize_t op_read_cached(struct ff_fs *fs, uint64_t handle, void *buf, size_t len,
			      uint64_t off)
{
	return file_read(fs, handle, buf, len, off, 1);
}

static ssize_t op_readlink(struct ff_fs *fs, uint64_t handle, char *buf, size_t cap)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct ff_err err = {0};
	struct sqfs_node n;

	if (sqfs_node_load(rd, handle, &n, &err) < 0)
		return sqfs_fail(rd, &err);
	if (sqfs_basic_type(n.in.type) != SQFS_SYMLINK)
		return -EINVAL;
	if (sqfs_meta_read(rd, &n.tail, buf, cap < n.in.target_size ? cap : n.in.target_size,
			   &err) < 0) {
		ff_err_prefix(&err, "inode %u: symlink target", n.in.inode_number);
		return sqfs_fail(rd, &err);
	}
	return n.in.target_size;
}

static int op_xattrs(struct ff_fs *fs, uint64_t handle, ff_xattr_visit_fn visit, void *vctx)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct ff_err err = {0};
	struct sqfs_node n;

	if (sqfs_node_load(rd, handle, &n, &err) < 0 ||
	    sqfs_xattr_walk(rd, n.in.xattr_idx, visit, vctx, &err) < 0) {
		ff_err_prefix(&err, "inode reference 0x%llx", (unsigned long long)handle);
		return sqfs_fail(rd, &err);
	}
	return 0;
}

static int op_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	struct sqfs_rd *rd = rd_of(fs);

	sf->block_size = rd->sb.block_size;
	sf->total_bytes = rd->sb.bytes_used;
	sf->image_bytes = rd->file_size;
	sf->inodes = rd->sb.inode_count;
	sf->name_max = SQFS_NAME_MAX;
	return 0;
}

static void op_close(struct ff_fs *fs)
{
	struct sqfs_rd *rd = rd_of(fs);
	int i;

	sqfs_prefetch_free(rd->prefetch);
	ff_bsrc_unref(rd->src);
	sqfs_cache_free(rd->meta);
	sqfs_cache_free(rd->data);
	sqfs_cache_free(rd->files);
	sqfs_pool_free(rd->pool);
	ff_comp_free(rd->comp);
	free(rd->ids);
	free(rd->frags);
	free(rd->export_blocks);
	free(rd->xattr_blocks);
	for (i = 0; i < SQFS_LOAD_LOCKS; i++)
		pthread_mutex_destroy(&rd->load_lock[i]);
	free(rd);
}

static const struct ff_fs_ops sqfs_ops = {
	.format = "squashfs",
	.root = op_root,
	.lookup = op_lookup,
	.getattr = op_getattr,
	.readdir = op_readdir,
	.read = op_read,
	.readlink = op_readlink,
	.xattr_walk = op_xattrs,
	.listxattr = ff_xattr_walk_list,
	.getxattr = ff_xattr_walk_get,
	.statfs = op_statfs,
	.info = sqfs_info,
	.check = sqfs_check,
	.close = op_close,
	.read_cached = op_read_cached,
};

static int read_super(struct sqfs_rd *rd, uint64_t file_size, struct ff_err *err)
{
	uint8_t raw[SQFS_SUPER_SIZE];

	rd->size = rd->file_size = file_size;
	if (sqfs_pread(rd, raw, sizeof(raw), 0, err) < 0 || sqfs_super_decode(raw, &rd->sb, err) < 0)
		return -1;
	if (rd->sb.bytes_used > file_size)
		return ff_err_set(err, EIO, "superblock: bytes_used %llu > file size %llu (truncated image?)",
				  (unsigned long long)rd->sb.bytes_used,
				  (unsigned long long)file_size);
	rd->size = rd->sb.bytes_used;
	return 0;
}

static int read_comp(struct sqfs_rd *rd, struct ff_err *err)
{
	uint8_t raw[SQFS_META_HEADER_SIZE], opts[SQFS_META_SIZE];
	struct ff_err note = {0};
	uint32_t size;
	int uncompressed;

	rd->comp = ff_comp_new_id(rd->sb.compressor, rd->sb.block_size, err);
	if (!rd->comp)
		return ff_err_prefix(err, "superblock: compressor %u", rd->sb.compressor);
	if (!(rd->sb.flags & SQFS_FLAG_COMPRESSOR_OPTIONS))
		return 0;
	if (sqfs_pread(rd, raw, 2, SQFS_SUPER_SIZE, err) < 0 ||
	    sqfs_meta_header_decode(raw, rd->meta_order, &size, &uncompressed, err) < 0)
		return ff_err_prefix(err, "compressor options");
	if (!uncompressed)
		return ff_err_set(err, EIO, "compressor options block is compressed");
	if (sqfs_pread(rd, opts, size, SQFS_SUPER_SIZE + 2, err) < 0)
		return ff_err_prefix(err, "compressor options");
	sqfs_comp_options_order(rd->sb.compressor, rd->sb.order, opts, size);
	if (ff_comp_options_read(rd->comp, opts, size, &note) > 0)
		ff_warnf(rd->base.log, rd->base.log_ctx, FF_WARN_NOTE, NULL,
			 "compressor options (%u bytes at offset %u): %s", size,
			 SQFS_SUPER_SIZE + 2, note.msg);
	return 0;
}

static int check_tables(struct sqfs_rd *rd, struct ff_err *err)
{
	const struct sqfs_super *sb = &rd->sb;

	if (sb->inode_table >= sb->dir_table || sb->dir_table >= rd->size)
		return ff_err_set(err, EIO, "superblock: inode table %llu / directory table %llu out of order or past end of image (%llu)",
				  (unsigned long long)sb->inode_table,
				  (unsigned long long)sb->dir_table, (unsigned long long)rd->size);
	if (sb->id_table >= rd->size)
		return ff_err_set(err, EIO, "superblock: id table %llu past end of image (%llu)",
				  (unsigned long long)sb->id_table, (unsigned long long)rd->size);
	if (sb->fragment_count && sb->fragment_table >= rd->size)
		return ff_err_set(err, EIO, "superblock: fragment table %llu past end of image (%llu)",
				  (unsigned long long)sb->fragment_table,
				  (unsigned long long)rd->size);
	if (sb->xattr_id_table != SQFS_INVALID_BLK && sb->xattr_id_table >= rd->size)
		return ff_err_set(err, EIO, "superblock: xattr table %llu past end of image (%llu)",
				  (unsigned long long)sb->xattr_id_table,
				  (unsigned long long)rd->size);
	rd->inode_end = sb->dir_table;
	rd->dir_end = rd->size;
	return 0;
}

static void lower_dir_end(struct sqfs_rd *rd, uint64_t pos)
{
	if (pos > rd->sb.dir_table && pos < rd->dir_end)
		rd->dir_end = pos;
}

static int load_tables(struct sqfs_rd *rd, struct ff_err *err)
{
	uint64_t first = SQFS_INVALID_BLK;

	if (sqfs_ids_load(rd, &first, err) < 0)
		return -1;
	lower_dir_end(rd, first);
	lower_dir_end(rd, rd->sb.id_table);
	first = SQFS_INVALID_BLK;
	if (sqfs_fragments_load(rd, &first, err) < 0)
		return -1;
	lower_dir_end(rd, first);
	if (rd->sb.fragment_count)
		lower_dir_end(rd, rd->sb.fragment_table);
	first = SQFS_INVALID_BLK;
	if (sqfs_export_load(rd, &first, err) < 0)
		return -1;
	lower_dir_end(rd, first);
	first = SQFS_INVALID_BLK;
	if (sqfs_xattr_load(rd, &first, err) < 0)
		return -1;
	lower_dir_end(rd, first);
	return 0;
}

/* One worker per core, so decompression runs beside the reader.  The
 * window is at most a quarter of the data cache, so prefetched blocks are
 * not evicted before they are read.  Without threads the mount still
 * works, just without read-ahead. */
static void start_prefetch(struct sqfs_rd *rd, uint64_t want, uint64_t data_budget)
{
	if (want > data_budget / 4)
		want = data_budget / 4;
	if (want < 4ull * rd->sb.block_size)
		return; /* the cache's shards would be too small to keep blocks */
	rd->prefetch = sqfs_prefetch_new(rd, want, ff_online_cpus());
}

/* The data cache's share of the budget, but never fewer than MIN_BLOCKS
 * blocks: with less, blocks that several reads share (a fragment holds the
 * tails of many files) are decoded again for each of them. */
#define MIN_BLOCKS 8

static uint64_t data_budget(const struct sqfs_rd *rd, uint64_t budget)
{
	uint64_t share = budget - budget / 8 - budget / 16;
	uint64_t floor = (uint64_t)MIN_BLOCKS * rd->sb.block_size;

	return share > floor ? share : floor;
}

static int make_caches(struct sqfs_rd *rd, uint64_t budget, struct ff_err *err)
{
	rd->meta = sqfs_cache_new(budget / 8 > (1u << 20) ? budget / 8 : (1u << 20), SQFS_META_SIZE);
	rd->files = sqfs_cache_new(budget / 16 > (256u << 10) ? budget / 16 : (256u << 10), 1024);
	rd->data = sqfs_cache_new(data_budget(rd, budget), rd->sb.block_size);
	rd->pool = sqfs_pool_new();
	if (!rd->meta || !rd->files || !rd->data || !rd->pool)
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int open_image(struct sqfs_rd *rd, const struct ff_open_opts *opts, struct ff_err *err)
{
	uint64_t budget = opts && opts->cache_bytes ? opts->cache_bytes : DEFAULT_CACHE;
	struct sqfs_node root;

	if (rd->src->size < SQFS_SUPER_SIZE)
		return ff_err_set(err, EINVAL, "%llu bytes are too few for a superblock (%u)",
				  (unsigned long long)rd->src->size, SQFS_SUPER_SIZE);
	if (read_super(rd, rd->src->size, err) < 0 || make_caches(rd, budget, err) < 0 ||
	    check_tables(rd, err) < 0)
		return -1;
	sqfs_meta_order_detect(rd);
	if (read_comp(rd, err) < 0 || load_tables(rd, err) < 0)
		return -1;
	if (sqfs_node_load(rd, rd->sb.root_inode, &root, err) < 0)
		return ff_err_prefix(err, "root inode");
	if (sqfs_basic_type(root.in.type) != SQFS_DIR)
		return ff_err_set(err, EIO, "root inode %u is not a directory",
				  root.in.inode_number);
	start_prefetch(rd, opts ? opts->prefetch_bytes : 0, data_budget(rd, budget));
	return 0;
}

int ff_squashfs_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		     struct ff_err *err)
{
	struct ff_bsrc *file = ff_bsrc_open(path, err), *src;
	int rc;

	*fs = NULL;
	if (!file)
		return -1;
	src = ff_bsrc_window(file, opts ? opts->offset : 0, UINT64_MAX, err);
	ff_bsrc_unref(file);
	if (!src)
		return -1;
	rc = ff_squashfs_open_src(src, opts, fs, err);
	ff_bsrc_unref(src);
	return rc;
}

int ff_squashfs_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
			 struct ff_err *err)
{
	struct sqfs_rd *rd = calloc(1, sizeof(*rd));
	int i;

	*fs = NULL;
	if (!rd)
		return ff_err_set(err, ENOMEM, "out of memory");
	rd->src = ff_bsrc_ref(src);
	atomic_init(&rd->data_end, 0);
	for (i = 0; i < SQFS_LOAD_LOCKS; i++)
		pthread_mutex_init(&rd->load_lock[i], NULL);
	rd->base.ops = &sqfs_ops;
	rd->base.log = opts ? opts->log : NULL;
	rd->base.log_ctx = opts ? opts->log_ctx : NULL;
	rd->sb.block_size = SQFS_BLOCK_MIN; /* scratch size until the superblock is read */
	if (open_image(rd, opts, err) < 0) {
		op_close(&rd->base);
		return -1;
	}
	*fs = &rd->base;
	return 0;
}
