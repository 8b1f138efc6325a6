/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The small in-memory ff_fs that test_fuse_mount.c serves through FUSE:
 * a fixed tree (a file, a 3 MiB file and its hard link, a symlink, a
 * device, a file whose reads fail, a subdirectory, a directory of 700
 * entries) with xattrs, statfs and a counter of logged errors.  Kept apart
 * so the test file holds the tests. */
#ifndef FF_TESTS_MEM_FS_H
#define FF_TESTS_MEM_FS_H

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/fs.h"
#include "tests/unit/test_noise.h"

/* ---- the in-memory file system ---------------------------------------- */

enum { H_FILE0, H_ROOT, H_BIG, H_LINK, H_DEV, H_BAD, H_SUB, H_SUBFILE, H_MANY, H_COUNT };
#define MANY 700
#define BIG_SIZE (3u * 1024 * 1024 + 123)
#define INO(h) ((h) * 10 + 7) /* inode numbers differ from handles on purpose */

struct mem_node {
	uint32_t mode;
	uint64_t size;
};

struct mem_fs {
	struct ff_fs base;
	struct mem_node nodes[H_COUNT + MANY];
	unsigned char *big;
	atomic_int logs;
};

struct dirent_def {
	uint64_t dir;
	const char *name;
	uint64_t child;
};

static const struct dirent_def tree[] = {
	{H_ROOT, "a-file", H_FILE0},  {H_ROOT, "big", H_BIG},   {H_ROOT, "big-hardlink", H_BIG},
	{H_ROOT, "bad", H_BAD},       {H_ROOT, "dev", H_DEV},   {H_ROOT, "link", H_LINK},
	{H_ROOT, "many", H_MANY},     {H_ROOT, "sub", H_SUB},   {H_SUB, "inner", H_SUBFILE},
};
#define NTREE (sizeof(tree) / sizeof(tree[0]))

static const char file0[] = "handle zero is an ordinary file\n";
static const char target[] = "big";

static struct mem_fs *mem(struct ff_fs *fs)
{
	return (struct mem_fs *)fs;
}

static uint64_t mem_root(struct ff_fs *fs)
{
	(void)fs;
	return H_ROOT;
}

static int valid(struct ff_fs *fs, uint64_t h)
{
	(void)fs;
	return h < H_COUNT + MANY;
}

/* Entries of `many` are files named m000..m699 with handles H_COUNT + i. */
static int many_lookup(const char *name, size_t len, uint64_t *h)
{
	unsigned i;

	if (len != 4 || name[0] != 'm' || sscanf(name + 1, "%3u", &i) != 1 || i >= MANY)
		return -ENOENT;
	*h = H_COUNT + i;
	return 0;
}

static int mem_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len,
		      uint64_t *h)
{
	if (!valid(fs, dir))
		return -EIO;
	if (!S_ISDIR(mem(fs)->nodes[dir].mode))
		return -ENOTDIR;
	if (dir == H_MANY)
		return many_lookup(name, len, h);
	for (size_t i = 0; i < NTREE; i++)
		if (tree[i].dir == dir && strlen(tree[i].name) == len &&
		    !memcmp(tree[i].name, name, len)) {
			*h = tree[i].child;
			return 0;
		}
	return -ENOENT;
}

static int mem_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	if (!valid(fs, h))
		return -EIO;
	memset(st, 0, sizeof(*st));
	st->ino = INO(h);
	st->mode = mem(fs)->nodes[h].mode;
	st->nlink = h == H_BIG ? 2 : 1;
	st->uid = 1000 + (uint32_t)h;
	st->gid = 2000 + (uint32_t)h;
	st->size = mem(fs)->nodes[h].size;
	st->blocks = (st->size + 511) / 512;
	st->mtime = 1700000000 + (int64_t)h;
	st->atime = st->ctime = st->mtime;
	if (h == H_DEV) {
		st->rdev_major = 8;
		st->rdev_minor = 33;
	}
	return 0;
}

static int mem_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		       void *ctx)
{
	char name[8];
	uint64_t pos = 0;

	if (!valid(fs, dir) || !S_ISDIR(mem(fs)->nodes[dir].mode))
		return -ENOTDIR;
	if (dir == H_MANY) {
		for (uint64_t i = start; i < MANY; i++) {
			snprintf(name, sizeof(name), "m%03u", (unsigned)i);
			if (fn(ctx, name, 4, H_COUNT + i, S_IFREG, i + 1))
				return 0;
		}
		return 0;
	}
	for (size_t i = 0; i < NTREE; i++) {
		if (tree[i].dir != dir || ++pos <= start)
			continue;
		if (fn(ctx, tree[i].name, strlen(tree[i].name), tree[i].child,
		       mem(fs)->nodes[tree[i].child].mode, pos))
			return 0;
	}
	return 0;
}

static ssize_t copy_range(const void *src, uint64_t size, void *buf, size_t len, uint64_t off)
{
	if (off >= size)
		return 0;
	if (len > size - off)
		len = (size_t)(size - off);
	memcpy(buf, (const char *)src + off, len);
	return (ssize_t)len;
}

static ssize_t mem_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	if (h == H_BAD) {
		ff_fs_log(fs, "inode %d: block list points past end of image", INO(H_BAD));
		atomic_fetch_add(&mem(fs)->logs, 1);
		return -EIO;
	}
	if (h == H_BIG)
		return copy_range(mem(fs)->big, BIG_SIZE, buf, len, off);
	if (h == H_FILE0 || h == H_SUBFILE)
		return copy_range(file0, sizeof(file0) - 1, buf, len, off);
	if (h >= H_COUNT)
		return copy_range("x", 1, buf, len, off);
	return valid(fs, h) ? -EISDIR : -EIO;
}

static ssize_t mem_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	(void)fs;
	if (h != H_LINK)
		return -EINVAL;
	memcpy(buf, target, cap < strlen(target) ? cap : strlen(target));
	return (ssize_t)strlen(target);
}

static int mem_listxattr(struct ff_fs *fs, uint64_t h, ff_xattr_fn fn, void *ctx)
{
	(void)fs;
	if (h != H_FILE0)
		return 0;
	if (fn(ctx, "user.comment", 12) == 0)
		fn(ctx, "trusted.x", 9);
	return 0;
}

static ssize_t mem_getxattr(struct ff_fs *fs, uint64_t h, const char *name, void *buf,
			    size_t cap)
{
	const char *v = !strcmp(name, "user.comment") ? "hello xattr" :
			!strcmp(name, "trusted.x")    ? "" : NULL;
	size_t len;

	(void)fs;
	if (h != H_FILE0 || !v)
		return -ENODATA;
	len = strlen(v);
	if (cap && cap < len)
		return -ERANGE;
	if (cap)
		memcpy(buf, v, len);
	return (ssize_t)len;
}

static int mem_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	(void)fs;
	sf->block_size = 131072;
	sf->total_bytes = 10 * 131072 + 5;
	sf->inodes = H_COUNT + MANY;
	sf->name_max = 256;
	return 0;
}

static void mem_close(struct ff_fs *fs)
{
	free(mem(fs)->big);
	free(fs);
}

static const struct ff_fs_ops mem_ops = {
	.format = "memory",
	.root = mem_root,
	.lookup = mem_lookup,
	.getattr = mem_getattr,
	.readdir = mem_readdir,
	.read = mem_read,
	.readlink = mem_readlink,
	.listxattr = mem_listxattr,
	.getxattr = mem_getxattr,
	.statfs = mem_statfs,
	.close = mem_close,
};

static void count_log(void *ctx, const struct ff_warning *w)
{
	(void)ctx;
	assert_int_equal(w->kind, FF_WARN_DAMAGED);
}

static struct ff_fs *mem_open(void)
{
	struct mem_fs *m = calloc(1, sizeof(*m));
	uint32_t x = 12345;

	m->base.ops = &mem_ops;
	m->base.log = count_log;
	m->big = malloc(BIG_SIZE);
	for (size_t i = 0; i < BIG_SIZE; i++) {
		x = test_noise_next(x);
		m->big[i] = (unsigned char)(x >> 16);
	}
	for (size_t i = 0; i < H_COUNT + MANY; i++)
		m->nodes[i] = (struct mem_node){S_IFREG | 0644, 1};
	m->nodes[H_FILE0] = (struct mem_node){S_IFREG | 0640, sizeof(file0) - 1};
	m->nodes[H_SUBFILE] = m->nodes[H_FILE0];
	m->nodes[H_ROOT] = (struct mem_node){S_IFDIR | 0755, 0};
	m->nodes[H_SUB] = (struct mem_node){S_IFDIR | 0700, 0};
	m->nodes[H_MANY] = (struct mem_node){S_IFDIR | 0755, 0};
	m->nodes[H_BIG] = (struct mem_node){S_IFREG | 0444, BIG_SIZE};
	m->nodes[H_LINK] = (struct mem_node){S_IFLNK | 0777, 3};
	m->nodes[H_DEV] = (struct mem_node){S_IFBLK | 0600, 0};
	m->nodes[H_BAD] = (struct mem_node){S_IFREG | 0644, 4096};
	return &m->base;
}

#endif
