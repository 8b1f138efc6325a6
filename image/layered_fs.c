/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A file system found inside a container (a UBI volume, a decompressed
 * stream): every operation goes to the inner image's reader; `info` adds
 * the container's facts before the inner ones and `check` its problems, and
 * statfs counts the outer bytes as the image's. */
#include <errno.h>
#include <stdlib.h>

#include "image/layered_fs.h"

struct layered {
	struct ff_fs base;
	struct ff_fs_ops ops;   /* the forwarders below, named as the container */
	struct ff_fs *in;
	struct ff_unwrapped u;
	uint64_t outer_bytes;
};

static struct ff_fs *in(struct ff_fs *fs)
{
	return ((struct layered *)fs)->in;
}

static uint64_t w_root(struct ff_fs *fs)
{
	return in(fs)->ops->root(in(fs));
}

static int w_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *h)
{
	return in(fs)->ops->lookup(in(fs), dir, name, len, h);
}

static int w_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	return in(fs)->ops->getattr(in(fs), h, st);
}

static int w_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn, void *ctx)
{
	return in(fs)->ops->readdir(in(fs), dir, start, fn, ctx);
}

static ssize_t w_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	return in(fs)->ops->read(in(fs), h, buf, len, off);
}

static ssize_t w_read_cached(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	if (!in(fs)->ops->read_cached)
		return -EAGAIN;
	return in(fs)->ops->read_cached(in(fs), h, buf, len, off);
}

static ssize_t w_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	return in(fs)->ops->readlink(in(fs), h, buf, cap);
}

static int w_listxattr(struct ff_fs *fs, uint64_t h, ff_xattr_fn fn, void *ctx)
{
	return in(fs)->ops->listxattr(in(fs), h, fn, ctx);
}

static ssize_t w_getxattr(struct ff_fs *fs, uint64_t h, const char *name, void *buf, size_t cap)
{
	return in(fs)->ops->getxattr(in(fs), h, name, buf, cap);
}

static int w_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	int r = in(fs)->ops->statfs(in(fs), sf);

	sf->image_bytes = ((struct layered *)fs)->outer_bytes;
	return r;
}

static void w_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct layered *l = (struct layered *)fs;

	if (l->u.info)
		l->u.info(l->u.ctx, l->in->ops->format, fn, ctx);
	l->in->ops->info(l->in, fn, ctx);
}

static long w_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct layered *l = (struct layered *)fs;
	long outer = l->u.check ? l->u.check(l->u.ctx, fn, ctx) : 0;
	long inner = l->in->ops->check(l->in, fn, ctx);

	return inner < 0 ? inner : inner + outer;
}

static long w_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct ff_fs *i = in(fs);

	return i->ops->open_problems ? i->ops->open_problems(i, fn, ctx) : 0;
}

void ff_unwrapped_release(struct ff_unwrapped *u)
{
	ff_bsrc_unref(u->inner);
	u->inner = NULL;
	if (u->close)
		u->close(u->ctx);
	u->ctx = NULL;
}

static void w_close(struct ff_fs *fs)
{
	struct layered *l = (struct layered *)fs;

	ff_fs_close(l->in);
	ff_unwrapped_release(&l->u);
	free(l);
}

static const struct ff_fs_ops layered_ops = {
	.root = w_root,
	.lookup = w_lookup,
	.getattr = w_getattr,
	.readdir = w_readdir,
	.read = w_read,
	.readlink = w_readlink,
	.listxattr = w_listxattr,
	.getxattr = w_getxattr,
	.statfs = w_statfs,
	.info = w_info,
	.check = w_check,
	.close = w_close,
	.read_cached = w_read_cached,
};

struct ff_fs *ff_layered_fs(struct ff_fs *inner, struct ff_unwrapped *u, const char *container,
			    uint64_t outer_bytes, struct ff_err *err)
{
	struct layered *l = calloc(1, sizeof(*l));

	if (!l) {
		ff_fs_close(inner);
		ff_unwrapped_release(u);
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	l->ops = layered_ops;
	l->ops.format = container;
	if (inner->ops->open_problems)
		l->ops.open_problems = w_open_problems;
	l->base = (struct ff_fs){.ops = &l->ops, .log = inner->log, .log_ctx = inner->log_ctx};
	l->in = inner;
	l->u = *u;
	l->outer_bytes = outer_bytes;
	return &l->base;
}
