/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The empty stand-in of unopened_fs.h.  Its format is NULL: a container's
 * info says its inside is not readable. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "image/unopened_fs.h"

#define ROOT 1

struct unopened {
	struct ff_fs base;
	char why[FF_ERR_MSG_MAX];
};

static uint64_t u_root(struct ff_fs *fs)
{
	(void)fs;
	return ROOT;
}

static int u_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *h)
{
	(void)fs;
	(void)name;
	(void)len;
	(void)h;
	return dir == ROOT ? -ENOENT : -EINVAL;
}

static int u_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	(void)fs;
	if (h != ROOT)
		return -EINVAL;
	*st = (struct ff_stat){ .ino = ROOT, .mode = S_IFDIR | 0555, .nlink = 2 };
	return 0;
}

static int u_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn, void *ctx)
{
	(void)fs;
	(void)start;
	(void)fn;
	(void)ctx;
	return dir == ROOT ? 0 : -ENOTDIR;
}

static ssize_t u_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	(void)fs;
	(void)h;
	(void)buf;
	(void)len;
	(void)off;
	return -EISDIR;
}

static ssize_t u_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	(void)fs;
	(void)h;
	(void)buf;
	(void)cap;
	return -EINVAL;
}

static int u_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	(void)fs;
	*sf = (struct ff_statfs){ .inodes = 1, .name_max = 255 };
	return 0;
}

static void u_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	ff_info_str(fn, ctx, "not_opened", ((struct unopened *)fs)->why);
}

static long u_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	fn(ctx, ((struct unopened *)fs)->why);
	return 1;
}

static void u_close(struct ff_fs *fs)
{
	free(fs);
}

static const struct ff_fs_ops unopened_ops = {
	.format = NULL,
	.root = u_root,
	.lookup = u_lookup,
	.getattr = u_getattr,
	.readdir = u_readdir,
	.read = u_read,
	.readlink = u_readlink,
	.listxattr = ff_fs_no_listxattr,
	.getxattr = ff_fs_no_getxattr,
	.statfs = u_statfs,
	.info = u_info,
	.check = u_check,
	.close = u_close,
};

struct ff_fs *ff_unopened_fs(const char *why, struct ff_err *err)
{
	struct unopened *u = calloc(1, sizeof(*u));

	if (!u) {
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	u->base.ops = &unopened_ops;
	snprintf(u->why, sizeof(u->why), "%s", why);
	return &u->base;
}
