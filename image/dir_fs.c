/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/fs.h over a host directory.  Each object met gets a handle, the
 * index of the host path it was first met at; a map from (device, inode)
 * to handle gives hard links one handle.  The table grows under a lock,
 * and paths are copied out under it, so every operation is thread-safe.
 * Files are opened per read: the interface has no open/close. */
#include "image/dir_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/hmap.h"

struct dir_fs {
	struct ff_fs fs;
	pthread_mutex_t lock;
	struct ff_hmap ids; /* (st_dev, st_ino) -> handle */
	char **paths;       /* handle -> host path */
	size_t n, cap;
};

static struct dir_fs *D(struct ff_fs *fs)
{
	return (struct dir_fs *)fs;
}

/* The handle of the object st describes, first met at path. */
static int register_obj(struct dir_fs *d, const char *path, const struct stat *st,
			uint64_t *handle)
{
	uint64_t key[2] = {(uint64_t)st->st_dev, (uint64_t)st->st_ino};
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	if (ff_hmap_find(&d->ids, key, sizeof(key), handle))
		goto out;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		char **p = realloc(d->paths, cap * sizeof(*p));

		if (!p) {
			ret = -ENOMEM;
			goto out;
		}
		d->paths = p;
		d->cap = cap;
	}
	d->paths[d->n] = strdup(path);
	if (!d->paths[d->n] || ff_hmap_set(&d->ids, key, sizeof(key), d->n) < 0) {
		free(d->paths[d->n]);
		ret = -ENOMEM;
		goto out;
	}
	*handle = d->n++;
out:
	pthread_mutex_unlock(&d->lock);
	return ret;
}

/* A copy of the handle's path, with room for "/" and a name of name_len. */
static char *path_of(struct dir_fs *d, uint64_t handle, size_t name_len)
{
	char *p = NULL;

	pthread_mutex_lock(&d->lock);
	if (handle < d->n) {
		size_t len = strlen(d->paths[handle]);

		p = malloc(len + name_len + 2);
		if (p)
			memcpy(p, d->paths[handle], len + 1);
	}
	pthread_mutex_unlock(&d->lock);
	return p;
}

static uint64_t dir_root(struct ff_fs *fs)
{
	(void)fs;
	return 0;
}

static int dir_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t name_len,
		      uint64_t *handle)
{
	char *p;
	struct stat st;
	int ret;

	/* a name never leaves the tree or names more than one level */
	if (!name_len || memchr(name, '/', name_len) || memchr(name, '\0', name_len) ||
	    (name[0] == '.' && (name_len == 1 || (name_len == 2 && name[1] == '.'))))
		return -ENOENT;
	p = path_of(D(fs), dir, name_len);
	if (!p)
		return -ENOENT;
	strcat(p, "/");
	strncat(p, name, name_len);
	ret = lstat(p, &st) < 0 ? -errno : register_obj(D(fs), p, &st, handle);
	free(p);
	return ret;
}

static int dir_getattr(struct ff_fs *fs, uint64_t handle, struct ff_stat *out)
{
	char *p = path_of(D(fs), handle, 0);
	struct stat st;
	int ret;

	if (!p)
		return -ENOENT;
	ret = lstat(p, &st) < 0 ? -errno : 0;
	free(p);
	if (ret < 0)
		return ret;
	*out = (struct ff_stat){
		.ino = st.st_ino, .mode = st.st_mode, .nlink = (uint32_t)st.st_nlink,
		.uid = st.st_uid, .gid = st.st_gid, .size = (uint64_t)st.st_size,
		.blocks = (uint64_t)st.st_blocks, .mtime = st.st_mtime, .atime = st.st_atime,
		.ctime = st.st_ctime, .rdev_major = major(st.st_rdev),
		.rdev_minor = minor(st.st_rdev)};
	return 0;
}

/* One directory entry: its handle registered, then the caller's callback
 * (outside the lock, so the callback may call back into the fs). */
static int visit_entry(struct dir_fs *d, int dfd, const char *dir, const char *name,
		       uint64_t cookie, ff_readdir_fn fn, void *ctx)
{
	size_t len = strlen(dir) + strlen(name) + 2;
	char *p = malloc(len);
	struct stat st;
	uint64_t h;
	int ret;

	if (!p)
		return -ENOMEM;
	strcat(strcat(strcpy(p, dir), "/"), name);
	ret = fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno
							       : register_obj(d, p, &st, &h);
	free(p);
	if (ret == -ENOENT)
		return 0; /* removed since readdir saw it: as if it had not been there */
	if (ret < 0)
		return ret;
	return fn(ctx, name, strlen(name), h, st.st_mode, cookie) ? 1 : 0;
}

/* Cookies count entries in the host's order, which only holds while the
 * directory is not changed. */
static int dir_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		       void *ctx)
{
	char *p = path_of(D(fs), dir, 0);
	struct dirent *e;
	uint64_t n = 0;
	DIR *dh;
	int ret = 0;

	if (!p)
		return -ENOENT;
	dh = opendir(p);
	if (!dh) {
		ret = -errno;
		free(p);
		return ret;
	}
	while (ret == 0 && (errno = 0, e = readdir(dh))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (++n > start)
			ret = visit_entry(D(fs), dirfd(dh), p, e->d_name, n, fn, ctx);
	}
	if (!e && errno)
		ret = -errno;
	closedir(dh);
	free(p);
	return ret < 0 ? ret : 0;
}

static ssize_t dir_read(struct ff_fs *fs, uint64_t handle, void *buf, size_t len, uint64_t off)
{
	char *p = path_of(D(fs), handle, 0);
	size_t got = 0;
	ssize_t n = 0;
	int fd;

	if (!p)
		return -ENOENT;
	fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(p);
	if (fd < 0)
		return -errno;
	while (got < len && (n = pread(fd, (char *)buf + got, len - got, (off_t)(off + got))) > 0)
		got += (size_t)n;
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : (ssize_t)got;
}

static ssize_t dir_readlink(struct ff_fs *fs, uint64_t handle, char *buf, size_t cap)
{
	char *p = path_of(D(fs), handle, 0);
	struct stat st;
	ssize_t n;

	if (!p)
		return -ENOENT;
	n = readlink(p, buf, cap);
	if (n < 0)
		n = -errno;
	else if ((size_t)n == cap && lstat(p, &st) == 0 && (size_t)st.st_size > cap)
		n = (ssize_t)st.st_size; /* the whole length, as the interface asks */
	free(p);
	return n;
}

/* The names llistxattr gives, or none where the host keeps no xattrs. */
static int dir_listxattr(struct ff_fs *fs, uint64_t handle, ff_xattr_fn fn, void *ctx)
{
	char *p = path_of(D(fs), handle, 0), *names = NULL;
	ssize_t len, i;
	int ret = 0;

	if (!p)
		return -ENOENT;
	len = llistxattr(p, NULL, 0);
	if (len > 0 && (names = malloc((size_t)len)))
		len = llistxattr(p, names, (size_t)len);
	if (len < 0 && errno != ENOTSUP)
		ret = -errno;
	else if (len > 0 && !names)
		ret = -ENOMEM;
	for (i = 0; ret == 0 && names && i < len; i += (ssize_t)strlen(names + i) + 1)
		if (fn(ctx, names + i, strlen(names + i)))
			break;
	free(names);
	free(p);
	return ret;
}

static ssize_t dir_getxattr(struct ff_fs *fs, uint64_t handle, const char *name, void *buf,
			    size_t cap)
{
	char *p = path_of(D(fs), handle, 0);
	ssize_t n;

	if (!p)
		return -ENOENT;
	n = lgetxattr(p, name, cap ? buf : NULL, cap);
	if (n < 0)
		n = errno == ENOTSUP ? -ENODATA : -errno;
	free(p);
	return n;
}

static int dir_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	char *p = path_of(D(fs), 0, 0);
	struct statvfs v;
	int ret;

	if (!p)
		return -ENOMEM;
	ret = statvfs(p, &v) < 0 ? -errno : 0;
	free(p);
	if (ret == 0)
		*sf = (struct ff_statfs){.block_size = v.f_bsize,
					 .total_bytes = (uint64_t)v.f_blocks * v.f_frsize,
					 .inodes = v.f_files - v.f_ffree,
					 .name_max = (uint32_t)v.f_namemax};
	return ret;
}

static void dir_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	char *p = path_of(D(fs), 0, 0);

	if (p)
		ff_info_str(fn, ctx, "path", p);
	free(p);
}

/* A host directory has no structures of its own to check. */
static long dir_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	(void)fs, (void)fn, (void)ctx;
	return 0;
}

static void dir_close(struct ff_fs *fs)
{
	struct dir_fs *d = D(fs);
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->paths[i]);
	free(d->paths);
	ff_hmap_clear(&d->ids, NULL);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

static const struct ff_fs_ops dir_ops = {
	.format = "directory", .root = dir_root, .lookup = dir_lookup,
	.getattr = dir_getattr, .readdir = dir_readdir, .read = dir_read,
	.readlink = dir_readlink, .listxattr = dir_listxattr, .getxattr = dir_getxattr,
	.statfs = dir_statfs, .info = dir_info, .check = dir_check, .close = dir_close,
};

int ff_dir_fs_open(const char *path, struct ff_fs **fs, struct ff_err *err)
{
	struct dir_fs *d = calloc(1, sizeof(*d));
	struct stat st;
	uint64_t root;

	*fs = NULL;
	if (!d)
		return ff_err_set(err, ENOMEM, "out of memory");
	d->fs.ops = &dir_ops;
	pthread_mutex_init(&d->lock, NULL);
	if (stat(path, &st) < 0 || (!S_ISDIR(st.st_mode) && (errno = ENOTDIR))) {
		ff_err_sys(err, errno, "%s", path);
		dir_close(&d->fs);
		return -1;
	}
	if (register_obj(d, path, &st, &root) < 0) {
		dir_close(&d->fs);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	*fs = &d->fs;
	return 0;
}
