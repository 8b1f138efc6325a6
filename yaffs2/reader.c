/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over a finished scan.  Everything is
 * immutable after open and data is read with pread, so every operation is
 * safe from several threads. */
#include "yaffs2/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/fd_size.h"
#include "common/problems.h"
#include "common/xattr_query.h"
#include "yaffs2/scan.h"
#include "yaffs2/xattr.h"

struct y2fs {
	struct ff_fs fs;
	struct ff_y2_scan s;
};

static struct y2fs *Y(struct ff_fs *fs)
{
	return (struct y2fs *)fs;
}

static const struct ff_y2_obj *obj_of(struct ff_fs *fs, uint64_t h)
{
	const struct ff_y2_obj *o;

	if (h == 0 || h > FF_Y2_OBJID_MAX)
		return NULL;
	o = Y(fs)->s.objs[h];
	return o && o->visible ? o : NULL;
}

static uint64_t y2_root(struct ff_fs *fs)
{
	(void)fs;
	return FF_Y2_OBJID_ROOT;
}

static uint32_t obj_mode(const struct ff_y2_obj *o)
{
	uint32_t perm = o->mode & 07777;

	switch (o->type) {
	case FF_Y2_TYPE_FILE: return S_IFREG | perm;
	case FF_Y2_TYPE_DIRECTORY: return S_IFDIR | perm;
	case FF_Y2_TYPE_SYMLINK: return S_IFLNK | perm;
	default: return (o->mode & S_IFMT ? o->mode & S_IFMT : S_IFREG) | perm;
	}
}

static int y2_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	const struct ff_y2_obj *d = obj_of(fs, dir);
	uint32_t lo = 0, hi;

	if (!d)
		return -ENOENT;
	if (d->type != FF_Y2_TYPE_DIRECTORY)
		return -ENOTDIR;
	hi = d->n_children;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct ff_y2_dirent *e = &d->children[mid];
		int c = ff_bytes_cmp(e->name, e->name_len, name, len);

		if (!c) {
			*handle = e->handle;
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

static int y2_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	const struct ff_y2_obj *o = obj_of(fs, h);

	if (!o)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->ino = o->id;
	st->mode = obj_mode(o);
	st->nlink = o->nlink ? o->nlink : 1;
	st->uid = o->uid;
	st->gid = o->gid;
	st->size = o->type == FF_Y2_TYPE_SYMLINK ? strlen(o->alias) : o->size;
	if (o->type == FF_Y2_TYPE_DIRECTORY)
		st->size = 0;
	st->blocks = (uint64_t)o->n_chunks * Y(fs)->s.lay.chunk_bytes / 512;
	st->mtime = o->mtime;
	st->atime = o->atime;
	st->ctime = o->ctime;
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode))
		ff_y2_rdev_decode(o->rdev, &st->rdev_major, &st->rdev_minor);
	return 0;
}

static int y2_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	const struct ff_y2_obj *d = obj_of(fs, dir);

	if (!d)
		return -ENOENT;
	if (d->type != FF_Y2_TYPE_DIRECTORY)
		return -ENOTDIR;
	for (uint64_t i = start; i < d->n_children; i++) {
		const struct ff_y2_dirent *e = &d->children[i];
		const struct ff_y2_obj *c = obj_of(fs, e->handle);

		if (c && fn(ctx, e->name, e->name_len, e->handle, obj_mode(c), i + 1))
			break;
	}
	return 0;
}

static ssize_t read_chunk_part(struct ff_fs *fs, const struct ff_y2_obj *o, uint8_t *buf,
			       size_t len, uint64_t off)
{
	const struct ff_y2_scan *s = &Y(fs)->s;
	uint32_t cb = s->lay.chunk_bytes;
	uint32_t in = (uint32_t)(off % cb);
	const struct ff_y2_chunk *c = ff_y2_obj_chunk(o, (uint32_t)(off / cb + 1));
	size_t n = cb - in < len ? cb - in : len;
	size_t have = c && c->n_bytes > in ? c->n_bytes - in : 0;

	if (have > n)
		have = n;
	if (have) {
		uint64_t pos = (uint64_t)c->page * s->lay.raw_page + in;
		struct ff_err err = {0};

		if (ff_bsrc_read(s->src, buf, have, pos, &err) < 0) {
			ff_fs_log(fs, "object %u: chunk %u: %s", o->id, c->chunk_id, err.msg);
			return -EIO;
		}
	}
	memset(buf + have, 0, n - have);
	return (ssize_t)n;
}

static ssize_t y2_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	const struct ff_y2_obj *o = obj_of(fs, h);
	size_t done = 0;

	if (!o)
		return -ENOENT;
	if (o->type == FF_Y2_TYPE_DIRECTORY)
		return -EISDIR;
	if (o->type != FF_Y2_TYPE_FILE)
		return -EINVAL;
	len = ff_read_span(o->size, off, len);
	if (!len)
		return 0;
	while (done < len) {
		ssize_t n = read_chunk_part(fs, o, (uint8_t *)buf + done, len - done, off + done);

		if (n < 0)
			return n;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static ssize_t y2_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	const struct ff_y2_obj *o = obj_of(fs, h);
	size_t len;

	if (!o)
		return -ENOENT;
	if (o->type != FF_Y2_TYPE_SYMLINK)
		return -EINVAL;
	len = strlen(o->alias);
	memcpy(buf, o->alias, len < cap ? len : cap);
	return (ssize_t)len;
}

static int y2_xattrs(struct ff_fs *fs, uint64_t h, ff_xattr_visit_fn visit, void *vctx)
{
	const struct ff_y2_obj *o = obj_of(fs, h);
	const struct ff_y2_scan *s = &Y(fs)->s;
	struct ff_err err = { 0, "" };
	uint8_t *page;
	int ret;

	/* Chunks of 512 bytes or less have no room for xattrs after the
	 * header (obj_header.h). */
	if (!o)
		return -ENOENT;
	if (o->fake || s->lay.chunk_bytes <= FF_Y2_OBJ_HEADER_SIZE)
		return 0;
	page = malloc(s->lay.chunk_bytes);
	if (!page)
		return -ENOMEM;
	ret = ff_y2_read_page_data(s, o->hdr_page, page, &err);
	if (!ret)
		ret = ff_y2_xattr_walk(page + FF_Y2_OBJ_HEADER_SIZE,
				       s->lay.chunk_bytes - FF_Y2_OBJ_HEADER_SIZE, ff_y2_hdr_big(s->big),
				       visit, vctx, &err);
	free(page);
	if (ret < 0) {
		ff_fs_log(fs, "object %u: xattrs: %s", o->id, err.msg);
		return -EIO;
	}
	return 0;
}

static int y2_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	const struct ff_y2_scan *s = &Y(fs)->s;

	memset(sf, 0, sizeof(*sf));
	sf->block_size = s->lay.chunk_bytes;
	sf->total_bytes = s->image_bytes;
	sf->image_bytes = s->image_bytes;
	sf->inodes = s->st.objects;
	sf->name_max = FF_Y2_NAME_MAX;
	return 0;
}

static void y2_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	ff_y2_info(&Y(fs)->s, fn, ctx);
}

static long y2_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	return ff_problem_replay(&Y(fs)->s.problems, fn, ctx);
}

static void y2_close(struct ff_fs *fs)
{
	struct y2fs *y = Y(fs);

	ff_y2_scan_free(&y->s);
	ff_bsrc_unref(y->s.src);
	free(y);
}

static const struct ff_fs_ops y2_ops = {
	.format = "yaffs2",
	.root = y2_root,
	.lookup = y2_lookup,
	.getattr = y2_getattr,
	.readdir = y2_readdir,
	.read = y2_read,
	.readlink = y2_readlink,
	.xattr_walk = y2_xattrs,
	.listxattr = ff_xattr_walk_list,
	.getxattr = ff_xattr_walk_get,
	.statfs = y2_statfs,
	.info = y2_info,
	.check = y2_check,
	.open_problems = y2_check,
	.close = y2_close,
};

const struct ff_yaffs2_opts *ff_yaffs2_opts_of(const struct ff_open_opts *o,
					       struct ff_yaffs2_opts *buf)
{
	const struct ff_flash_hint *h = o ? &o->flash : NULL;

	if (!h || (!h->page_size && !h->oob_size && !h->pages_per_block && !h->oob_layout &&
		   !h->tags && h->byte_order == FF_ORDER_DETECT))
		return NULL;
	*buf = (struct ff_yaffs2_opts){
		h->page_size, h->oob_size, h->pages_per_block, h->oob_layout, h->tags,
		h->byte_order == FF_ORDER_DETECT ? -1 : h->byte_order == FF_ORDER_BIG,
	};
	return buf;
}

/* The file at path from opts->offset on, as a byte source. */
static struct ff_bsrc *open_file(const char *path, const struct ff_open_opts *opts,
				 struct ff_err *err)
{
	struct ff_bsrc *file = ff_bsrc_open(path, err), *src;

	if (!file)
		return NULL;
	src = ff_bsrc_window(file, opts ? opts->offset : 0, UINT64_MAX, err);
	ff_bsrc_unref(file);
	return src;
}

int ff_yaffs2_probe(const char *path, const struct ff_open_opts *opts)
{
	struct ff_bsrc *src = open_file(path, opts, NULL);
	int ok;

	if (!src)
		return 0;
	ok = ff_yaffs2_probe_src(src, opts);
	ff_bsrc_unref(src);
	return ok;
}

int ff_yaffs2_probe_src(struct ff_bsrc *src, const struct ff_open_opts *opts)
{
	struct ff_yaffs2_opts y2o;
	struct ff_y2_layout lay;
	int big;

	return ff_y2_detect(src, 0, src->size, ff_yaffs2_opts_of(opts, &y2o), &lay, &big, NULL) == 0;
}

/* A YAFFS2 image starts with an object header (its first chunk is the
 * header of an object under the root); only where one decodes is the
 * costlier geometry detection tried. */
int ff_yaffs2_probe_at(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		       const struct ff_open_opts *opts)
{
	struct ff_yaffs2_opts y2o;
	uint64_t size = src->size;
	struct ff_y2_obj_header oh;
	struct ff_y2_layout lay;
	int big;

	if (len < FF_Y2_OBJ_HEADER_MIN || off > size ||
	    (ff_y2_obj_header_decode_len(buf, FF_Y2_OBJ_HEADER_MIN, 0, &oh, NULL) &&
	     ff_y2_obj_header_decode_len(buf, FF_Y2_OBJ_HEADER_MIN, 1, &oh, NULL)))
		return -1;
	return ff_y2_detect(src, off, size - off, ff_yaffs2_opts_of(opts, &y2o), &lay, &big,
			    NULL) == 0;
}

int ff_yaffs2_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		   struct ff_err *err)
{
	struct ff_bsrc *src = open_file(path, opts, err);
	int rc;

	*fs = NULL;
	if (!src)
		return -1;
	rc = ff_yaffs2_open_src(src, opts, fs, err);
	ff_bsrc_unref(src);
	return rc;
}

int ff_yaffs2_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		       struct ff_err *err)
{
	struct y2fs *y = calloc(1, sizeof(*y));
	struct ff_yaffs2_opts y2o;

	*fs = NULL;
	if (!y)
		return ff_err_set(err, ENOMEM, "out of memory");
	y->fs.ops = &y2_ops;
	y->fs.log = opts ? opts->log : NULL;
	y->fs.log_ctx = opts ? opts->log_ctx : NULL;
	y->s.src = ff_bsrc_ref(src);
	y->s.image_bytes = src->size;
	if (ff_y2_detect(src, 0, src->size, ff_yaffs2_opts_of(opts, &y2o), &y->s.lay, &y->s.big,
			 err) ||
	    ff_y2_scan_run(&y->s, err)) {
		ff_err_prefix(err, "%s", src->name);
		y2_close(&y->fs);
		return -1;
	}
	*fs = &y->fs;
	return 0;
}
