/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The read interface (common/fs.h) over the walked image.  Modes are the
 * kernel's (fs/romfs/super.c): directories and files 0644, plus 0111 with
 * the executable bit; symlinks 0777; devices 0600; sockets and fifos 0644.
 * romfs keeps no owners or times: 0 for all. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"
#include "common/problems.h"
#include "romfs/reader.h"
#include "romfs/romfs.h"

static struct rf_fs *R(struct ff_fs *fs)
{
	return (struct rf_fs *)fs;
}

const struct rf_obj *rf_obj_of(const struct rf_fs *r, uint64_t handle)
{
	uint32_t off = (uint32_t)handle;
	uint64_t v;

	if (handle > UINT32_MAX || !ff_hmap_find(&r->by_off, &off, sizeof(off), &v))
		return NULL;
	return &r->objs[v - 1];
}

uint32_t rf_obj_mode(const struct rf_obj *o)
{
	static const uint32_t base[8] = {
		0, S_IFDIR | 0644, S_IFREG | 0644, S_IFLNK | 0777,
		S_IFBLK | 0600, S_IFCHR | 0600, S_IFSOCK | 0644, S_IFIFO | 0644,
	};
	uint32_t m = base[o->type & RF_TYPE_MASK];

	if (o->exec && (o->type == RF_DIR || o->type == RF_REG))
		m |= 0111;
	return m;
}

static uint64_t rf_root(struct ff_fs *fs)
{
	return R(fs)->objs[0].off;
}

static const struct rf_obj *dir_of(struct ff_fs *fs, uint64_t h, int *rc)
{
	const struct rf_obj *d = rf_obj_of(R(fs), h);

	*rc = !d ? -ENOENT : d->type != RF_DIR ? -ENOTDIR : 0;
	return *rc ? NULL : d;
}

static int rf_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		     uint64_t *handle)
{
	struct rf_fs *r = R(fs);
	int rc;
	const struct rf_obj *d = dir_of(fs, dir, &rc);
	uint32_t lo = 0, hi;

	if (!d)
		return rc;
	hi = d->count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct rf_dirent *e = &r->ents[r->sorted[d->first + mid]];
		int c = ff_bytes_cmp(r->names + e->name, e->len, name, len);

		if (!c) {
			*handle = r->objs[e->obj].off;
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}

static int rf_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	const struct rf_obj *o = rf_obj_of(R(fs), h);

	if (!o)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->ino = o->off;
	st->mode = rf_obj_mode(o);
	st->nlink = o->nlink ? o->nlink : 1;
	/* the kernel gives a directory the size of its header and name */
	st->size = o->type == RF_DIR ? o->meta : o->type == RF_REG || o->type == RF_SYMLINK ? o->size : 0;
	st->blocks = (st->size + 511) / 512;
	if (o->type == RF_BLKDEV || o->type == RF_CHRDEV) {
		st->rdev_major = o->spec >> 16;
		st->rdev_minor = o->spec & 0xffff;
	}
	return 0;
}

/* By name, not in the chain's order: every reader lists sorted, which is
 * how an extraction tells a duplicate name at a glance. */
static int rf_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		      void *ctx)
{
	struct rf_fs *r = R(fs);
	int rc;
	const struct rf_obj *d = dir_of(fs, dir, &rc);

	if (!d)
		return rc;
	for (uint64_t i = start; i < d->count; i++) {
		const struct rf_dirent *e = &r->ents[r->sorted[d->first + i]];
		const struct rf_obj *o = &r->objs[e->obj];

		if (fn(ctx, r->names + e->name, e->len, o->off, rf_obj_mode(o), i + 1))
			break;
	}
	return 0;
}

/* len bytes of o's data at off (inside its size). */
static ssize_t read_data(struct ff_fs *fs, const struct rf_obj *o, void *buf, size_t len,
			 uint64_t off)
{
	ssize_t got;

	if (o->data_bad) {
		ff_fs_log(fs, "object at offset %u: %u data bytes at offset %u run past the end of"
			  " the image (%u bytes)", o->off, o->size, o->data, R(fs)->limit);
		return -EIO;
	}
	got = ff_bsrc_pread(R(fs)->src, buf, len, o->data + off);
	if (got < 0 || (size_t)got != len) {
		ff_fs_log(fs, "object at offset %u: read of %zu bytes at offset %llu failed", o->off,
			  len, (unsigned long long)(o->data + off));
		return -EIO;
	}
	return got;
}

static ssize_t rf_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	const struct rf_obj *o = rf_obj_of(R(fs), h);

	if (!o)
		return -ENOENT;
	if (o->type == RF_DIR)
		return -EISDIR;
	if (o->type != RF_REG)
		return -EINVAL;
	len = ff_read_span(o->size, off, len);
	if (!len)
		return 0;
	return read_data(fs, o, buf, len, off);
}

static ssize_t rf_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	const struct rf_obj *o = rf_obj_of(R(fs), h);
	size_t n;
	ssize_t got;

	if (!o)
		return -ENOENT;
	if (o->type != RF_SYMLINK)
		return -EINVAL;
	n = o->size < cap ? o->size : cap;
	got = n ? read_data(fs, o, buf, n, 0) : 0;
	return got < 0 ? got : (ssize_t)o->size;
}

static int rf_listxattr(struct ff_fs *fs, uint64_t h, ff_xattr_fn fn, void *ctx)
{
	(void)fn;
	(void)ctx;
	return rf_obj_of(R(fs), h) ? 0 : -ENOENT;
}

static ssize_t rf_getxattr(struct ff_fs *fs, uint64_t h, const char *name, void *buf,
			   size_t cap)
{
	(void)name;
	(void)buf;
	(void)cap;
	return rf_obj_of(R(fs), h) ? -ENODATA : -ENOENT;
}

static int rf_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	struct rf_fs *r = R(fs);

	memset(sf, 0, sizeof(*sf));
	sf->block_size = RF_BLOCK;
	sf->total_bytes = r->sb.full_size;
	sf->image_bytes = r->src->size;
	sf->inodes = r->n_objs;
	sf->name_max = RF_KERNEL_NAME_MAX;
	return 0;
}

static void rf_info_op(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	rf_info(R(fs), fn, ctx);
}

/* check reports every problem, open_problems only the damage. */
static long report(struct rf_fs *r, int all, ff_problem_fn fn, void *ctx)
{
	const struct ff_problem_list *l = &r->problems;

	for (size_t i = 0; i < ff_problem_kept(l); i++)
		if (all || ff_problem_at(l, i)->flag)
			fn(ctx, ff_problem_at(l, i)->msg);
	if (l->total > ff_problem_kept(l))
		fn(ctx, "... and more problems (only the first 1000 are kept)");
	return (long)(all ? l->total : l->flagged);
}

static long rf_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	return report(R(fs), 1, fn, ctx);
}

static long rf_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	return report(R(fs), 0, fn, ctx);
}

static void rf_close(struct ff_fs *fs)
{
	struct rf_fs *r = R(fs);

	rf_walk_free(r);
	ff_bsrc_unref(r->src);
	free(r);
}

static const struct ff_fs_ops rf_ops = {
	.format = "romfs",
	.root = rf_root,
	.lookup = rf_lookup,
	.getattr = rf_getattr,
	.readdir = rf_readdir,
	.read = rf_read,
	.readlink = rf_readlink,
	.listxattr = rf_listxattr,
	.getxattr = rf_getxattr,
	.statfs = rf_statfs,
	.info = rf_info_op,
	.check = rf_check,
	.open_problems = rf_open_problems,
	.close = rf_close,
};

/* What the superblock says against the source: problems, not refusals, so
 * a damaged image still gives up what it holds. */
static int super_problems(struct rf_fs *r)
{
	const struct rf_super *sb = &r->sb;

	if (!sb->sum_ok &&
	    ff_problem_add_flag(&r->problems, 1,
				"superblock: checksum of the first %u bytes does not add up"
				" (stored 0x%08x); the kernel refuses to mount", sb->sum_bytes,
				sb->checksum))
		return -1;
	if (sb->full_size > r->src->size &&
	    ff_problem_add_flag(&r->problems, 1,
				"superblock: full size %u, but the image has only %llu bytes"
				" (truncated)", sb->full_size, (unsigned long long)r->src->size))
		return -1;
	return 0;
}

int ff_romfs_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		      struct ff_err *err)
{
	struct rf_fs *r = calloc(1, sizeof(*r));

	*fs = NULL;
	if (!r)
		return ff_err_set(err, ENOMEM, "out of memory");
	r->fs.ops = &rf_ops;
	r->fs.log = opts ? opts->log : NULL;
	r->fs.log_ctx = opts ? opts->log_ctx : NULL;
	r->src = ff_bsrc_ref(src);
	ff_problem_list_init(&r->problems, RF_PROBLEMS_KEPT);
	if (rf_super_read(src, &r->sb, err))
		goto fail;
	r->limit = r->sb.full_size < src->size ? r->sb.full_size : (uint32_t)src->size;
	if (super_problems(r)) {
		ff_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	if (rf_walk(r, err))
		goto fail;
	*fs = &r->fs;
	return 0;
fail:
	ff_err_prefix(err, "%s", src->name);
	rf_close(&r->fs);
	return -1;
}
