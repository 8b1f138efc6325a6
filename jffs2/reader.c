/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over a built JFFS2 tree.  Handles are
 * inode numbers.  The tree is immutable after open; the one shared
 * mutable thing, the last decompressed node, is behind a mutex. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "common/xattr_query.h"
#include "jffs2/decomp.h"
#include "jffs2/node.h"
#include "jffs2/reader.h"
#include "jffs2/xattr.h"

static struct j2fs *J(struct ff_fs *fs)
{
	return (struct j2fs *)fs;
}

static const struct j2_ino *ino_of(struct ff_fs *fs, uint64_t h)
{
	const struct j2_ino *in = h <= UINT32_MAX ? j2_tree_find(&J(fs)->t, h) : NULL;

	return in && in->reachable ? in : NULL;
}

static uint64_t j2_root(struct ff_fs *fs)
{
	(void)fs;
	return 1;
}

/* Stored bytes come through a window of the image: a file's nodes
 * follow one another, and one read of the window spares a read per node
 * (32,000 calls for a 64 MB image); a file elsewhere costs one read. */
#define WINDOW (32u * 1024u)

/* [off, off + len) into j->blk (lock held); 1 when longer than the
 * window or unreadable (the caller reads them on its own, and reports). */
static int load_window(struct j2fs *j, uint64_t off, uint32_t len)
{
	uint64_t size = j->s.size;
	ssize_t n;

	if (j->blk && off >= j->blk_pos && off + len <= j->blk_pos + j->blk_len)
		return 0;
	if (len > WINDOW || off >= size || len > size - off)
		return 1;
	if (!j->blk && !(j->blk = malloc(WINDOW)))
		return 1;
	j->blk_len = 0;
	n = ff_bsrc_pread(j->s.src, j->blk, size - off < WINDOW ? (size_t)(size - off) : WINDOW,
			  off);
	if (n < (ssize_t)len)
		return 1;
	j->blk_pos = off;
	j->blk_len = (uint32_t)n;
	return 0;
}

/* A node's stored bytes, through the window when they fit one. */
static int read_stored(struct j2fs *j, uint8_t *buf, uint32_t len, uint64_t off,
		       struct ff_err *err)
{
	int miss;

	pthread_mutex_lock(&j->lock);
	miss = load_window(j, off, len);
	if (!miss)
		memcpy(buf, j->blk + (off - j->blk_pos), len);
	pthread_mutex_unlock(&j->lock);
	if (miss && ff_bsrc_read(j->s.src, buf, len, off, err) < 0)
		return -1;
	return 0;
}

int j2_node_data(struct j2fs *j, const struct j2_inode_rec *r, uint8_t *out,
		 struct ff_err *err)
{
	uint8_t *raw = NULL;
	int ret = 0;

	if (r->csize) {
		raw = malloc(r->csize);
		if (!raw)
			return -ENOMEM;
		if (read_stored(j, raw, r->csize, r->pos + J2_INODE_SIZE, err) < 0)
			ret = -EIO;
	}
	if (!ret && j2_decompress(r->compr, raw, r->csize, out, r->dsize, err) < 0)
		ret = -EIO;
	if (ret)
		ff_err_prefix(err, "inode %u: node at offset %llu (version %u, bytes %u-%u)", r->ino,
			      (unsigned long long)r->pos, r->version, r->offset,
			      r->offset + r->dsize);
	free(raw);
	return ret;
}

static int j2_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	const struct j2_ino *d = ino_of(fs, dir);
	size_t lo = 0, hi;

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	hi = d->n_children;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct j2_child *c = &d->children[mid];
		int cmp = memcmp(c->name, name, c->len < len ? c->len : len);

		if (!cmp)
			cmp = (c->len > len) - (c->len < len);
		if (!cmp) {
			*handle = c->ino;
			return 0;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

/* A device's number: 2 bytes (old_encode_dev) or 4 (new_encode_dev) of
 * node data, in the image's byte order (fs.c as facts). */
static void device_number(struct j2fs *j, const struct j2_ino *in, struct ff_stat *st)
{
	uint8_t b[4];
	struct ff_err err = { 0, "" };
	uint32_t v;

	if (!in->meta || (in->meta->dsize != 2 && in->meta->dsize != 4) ||
	    j2_node_data(j, in->meta, b, &err) < 0)
		return;
	if (in->meta->dsize == 2) {
		v = ff_get16(b, j->s.geo.big);
		st->rdev_major = (v >> 8) & 0xff;
		st->rdev_minor = v & 0xff;
		return;
	}
	v = ff_get32(b, j->s.geo.big);
	st->rdev_major = (v & 0xfff00) >> 8;
	st->rdev_minor = (v & 0xff) | ((v >> 12) & 0xfff00);
}

static int j2_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	const struct j2_ino *in = ino_of(fs, h);

	if (!in)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->ino = in->ino;
	st->mode = in->mode;
	st->nlink = in->nlink ? in->nlink : 1;
	st->uid = in->uid;
	st->gid = in->gid;
	st->size = S_ISDIR(in->mode) ? 0 : in->size;
	st->blocks = in->stored / 512;
	st->atime = in->atime;
	st->mtime = in->mtime;
	st->ctime = in->ctime;
	if (S_ISCHR(in->mode) || S_ISBLK(in->mode))
		device_number(J(fs), in, st);
	return 0;
}

static int j2_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	const struct j2_ino *d = ino_of(fs, dir);

	if (!d)
		return -ENOENT;
	if (!S_ISDIR(d->mode))
		return -ENOTDIR;
	for (uint64_t i = start; i < d->n_children; i++) {
		const struct j2_child *c = &d->children[i];

		if (fn(ctx, c->name, c->len, c->ino, c->mode, i + 1))
			break;
	}
	return 0;
}

/* Copies n bytes from offset at of node r's data, through the one-node
 * cache when only part of the node is wanted. */
static int copy_node(struct j2fs *j, const struct j2_inode_rec *r, uint32_t at, uint8_t *dst,
		     size_t n)
{
	struct ff_err err = { 0, "" };
	uint8_t *data;
	int ret;

	pthread_mutex_lock(&j->lock);
	if (j->cache && j->cache_pos == r->pos && j->cache_len == r->dsize) {
		memcpy(dst, j->cache + at, n);
		pthread_mutex_unlock(&j->lock);
		return 0;
	}
	pthread_mutex_unlock(&j->lock);
	if (at == 0 && n == r->dsize && n) {
		/* the whole node: straight into the caller's buffer, which
		 * a sequential read never asks for again */
		ret = j2_node_data(j, r, dst, &err);
		if (ret < 0)
			ff_fs_log(&j->fs, "%s", err.msg);
		return ret;
	}
	data = malloc(r->dsize ? r->dsize : 1);
	if (!data)
		return -ENOMEM;
	ret = j2_node_data(j, r, data, &err);
	if (ret < 0) {
		ff_fs_log(&j->fs, "%s", err.msg);
		free(data);
		return ret;
	}
	memcpy(dst, data + at, n);
	pthread_mutex_lock(&j->lock);
	free(j->cache);
	j->cache = data;
	j->cache_pos = r->pos;
	j->cache_len = r->dsize;
	pthread_mutex_unlock(&j->lock);
	return 0;
}

/* One piece of [off, off + len): a fragment's bytes or a hole's zeros.
 * Returns the bytes done or -errno. */
static ssize_t read_piece(struct j2fs *j, const struct j2_ino *in, uint8_t *buf, size_t len,
			  uint64_t off)
{
	size_t k = j2_frag_find(in->frags, in->n_frags, off);
	const struct j2_frag *f = k < in->n_frags ? &in->frags[k] : NULL;
	size_t n;
	int ret;

	if (!f || f->start > off) {
		n = f && f->start - off < len ? (size_t)(f->start - off) : len;
		memset(buf, 0, n);
		return (ssize_t)n;
	}
	n = f->end - off < len ? (size_t)(f->end - off) : len;
	ret = copy_node(j, &j->s.inodes[f->node], (uint32_t)(f->node_ofs + (off - f->start)), buf,
			n);
	return ret < 0 ? ret : (ssize_t)n;
}

static ssize_t j2_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	const struct j2_ino *in = ino_of(fs, h);
	size_t done = 0;

	if (!in)
		return -ENOENT;
	if (S_ISDIR(in->mode))
		return -EISDIR;
	if (!S_ISREG(in->mode))
		return -EINVAL;
	len = ff_read_span(in->size, off, len);
	if (!len)
		return 0;
	while (done < len) {
		ssize_t n = read_piece(J(fs), in, (uint8_t *)buf + done, len - done, off + done);

		if (n < 0)
			return n;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* A symlink's target is its newest node's stored bytes (readinode.c reads
 * csize bytes straight from flash). */
static ssize_t j2_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	const struct j2_ino *in = ino_of(fs, h);
	struct ff_err err = { 0, "" };
	size_t len;
	char *tmp;

	if (!in)
		return -ENOENT;
	if (!S_ISLNK(in->mode) || !in->meta)
		return -EINVAL;
	len = in->meta->csize;
	tmp = malloc(len ? len : 1);
	if (!tmp)
		return -ENOMEM;
	if (len && ff_bsrc_read(J(fs)->s.src, tmp, len, in->meta->pos + J2_INODE_SIZE, &err) < 0) {
		ff_fs_log(fs, "inode %u: symlink target: %s", in->ino, err.msg);
		free(tmp);
		return -EIO;
	}
	memcpy(buf, tmp, len < cap ? len : cap);
	free(tmp);
	return (ssize_t)len;
}

static int j2_xattrs(struct ff_fs *fs, uint64_t h, ff_xattr_visit_fn visit, void *vctx)
{
	const struct j2_ino *in = ino_of(fs, h);

	if (!in)
		return -ENOENT;
	return j2_xattr_walk(&J(fs)->s, in, visit, vctx);
}

static int j2_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	const struct j2fs *j = J(fs);

	memset(sf, 0, sizeof(*sf));
	sf->block_size = j->s.geo.erase;
	sf->total_bytes = j->s.size;
	sf->image_bytes = j->s.size;
	sf->inodes = j->t.n - j->t.unreachable - j->t.deleted;
	sf->name_max = J2_MAX_NAME;
	return 0;
}

static void j2_info_op(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	j2_info(J(fs), fn, ctx);
}

static void j2_close(struct ff_fs *fs)
{
	struct j2fs *j = J(fs);

	if (!j)
		return;
	j2_tree_free(&j->t);
	j2_scan_free(&j->s);
	ff_bsrc_unref(j->s.src);
	free(j->cache);
	free(j->blk);
	pthread_mutex_destroy(&j->lock);
	free(j);
}

static const struct ff_fs_ops j2_ops = {
	.format = "jffs2",
	.root = j2_root,
	.lookup = j2_lookup,
	.getattr = j2_getattr,
	.readdir = j2_readdir,
	.read = j2_read,
	.readlink = j2_readlink,
	.xattr_walk = j2_xattrs,
	.listxattr = ff_xattr_walk_list,
	.getxattr = ff_xattr_walk_get,
	.statfs = j2_statfs,
	.info = j2_info_op,
	.check = j2_check,
	.open_problems = j2_open_problems,
	.close = j2_close,
};

int ff_jffs2_open(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err)
{
	struct j2fs *j = calloc(1, sizeof(*j));

	*fs = NULL;
	if (!j)
		return ff_err_set(err, ENOMEM, "out of memory");
	j->fs.ops = &j2_ops;
	j->fs.log = opts ? opts->log : NULL;
	j->fs.log_ctx = opts ? opts->log_ctx : NULL;
	pthread_mutex_init(&j->lock, NULL);
	j->s.src = ff_bsrc_ref(src);
	j->s.size = src->size;
	ff_problem_list_init(&j->s.prob, J2_MAX_PROBLEMS);
	if (j2_geometry_detect(src, opts ? &opts->flash : NULL, &j->s.geo, err) ||
	    j2_scan_run(&j->s, err)) {
		ff_err_prefix(err, "%s", src->name);
		j2_close(&j->fs);
		return -1;
	}
	if (j2_tree_build(&j->s, &j->t)) {
		ff_err_set(err, ENOMEM, "%s: out of memory building the tree", src->name);
		j2_close(&j->fs);
		return -1;
	}
	*fs = &j->fs;
	return 0;
}
