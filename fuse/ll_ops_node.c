/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Session setup and the per-node callbacks: init, lookup, getattr,
 * readlink, statfs. */
#include "fuse/ll.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	struct ff_fuse *ff = userdata;

	/* readdirplus always: each listing primes the kernel's entry and
	 * attribute caches, which never need revalidating. */
	if (conn->capable & FUSE_CAP_READDIRPLUS) {
		conn->want |= FUSE_CAP_READDIRPLUS;
		conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	}
	if (conn->capable & FUSE_CAP_CACHE_SYMLINKS)
		conn->want |= FUSE_CAP_CACHE_SYMLINKS;
	if (conn->capable & FUSE_CAP_ASYNC_READ)
		conn->want |= FUSE_CAP_ASYNC_READ;
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
	/* Zero-message open: the kernel then opens with keep_cache (files)
	 * and cache_dir (directories), saving open/flush/release round trips
	 * per file.  Our open/opendir answer ENOSYS once to switch it on. */
	if (conn->capable & FUSE_CAP_NO_OPEN_SUPPORT)
		atomic_store(&ff->no_open, 1);
	if (conn->capable & FUSE_CAP_NO_OPENDIR_SUPPORT)
		atomic_store(&ff->no_opendir, 1);
	conn->want &= ~(FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_AUTO_INVAL_DATA);
	/* libfuse insists that this repeats the max_read mount option */
	conn->max_read = ff->max_read;
	/* More read-ahead requests in flight lets the request threads
	 * decompress neighbouring blocks in parallel. */
	if (conn->max_background < 64)
		conn->max_background = 64;
	if (conn->congestion_threshold < 48)
		conn->congestion_threshold = 48;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	struct fuse_entry_param e;
	uint64_t dir, h;
	int ret;

	ret = ff_fuse_handle(ff, parent, &dir);
	if (ret == 0)
		ret = ff->fs->ops->lookup(ff->fs, dir, name, strlen(name), &h);
	if (ret == -ENOENT) {
		/* Negative entry, cached as long as a positive one. */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = FF_FUSE_CACHE_SECONDS;
		fuse_reply_entry(req, &e);
		return;
	}
	if (ret == 0)
		ret = ff_fuse_entry(ff, h, &e);
	if (ret < 0)
		ff_fuse_reply_errno(req, ret);
	else
		fuse_reply_entry(req, &e);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	struct ff_stat st;
	struct stat out;
	uint64_t h;
	int ret;

	(void)fi;
	ret = ff_fuse_handle(ff, ino, &h);
	if (ret == 0)
		ret = ff->fs->ops->getattr(ff->fs, h, &st);
	if (ret < 0) {
		ff_fuse_reply_errno(req, ret);
		return;
	}
	ff_fuse_stat(ff, &st, &out);
	fuse_reply_attr(req, &out, FF_FUSE_CACHE_SECONDS);
}

/* Targets longer than PATH_MAX are legal in an image; they get a heap
 * buffer of the size the first call reported. */
static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	char small[PATH_MAX + 1], *buf = small;
	size_t cap = sizeof(small);
	ssize_t n = -EIO;
	uint64_t h;
	int ret;

	ret = ff_fuse_handle(ff, ino, &h);
	if (ret < 0) {
		ff_fuse_reply_errno(req, ret);
		return;
	}
	n = ff->fs->ops->readlink(ff->fs, h, buf, cap);
	if (n >= 0 && (size_t)n >= cap) {
		cap = (size_t)n + 1;
		buf = malloc(cap);
		n = buf ? ff->fs->ops->readlink(ff->fs, h, buf, cap) : -ENOMEM;
		if (n >= 0 && (size_t)n >= cap)
			n = -EIO; /* the target changed length between calls */
	}
	if (n < 0) {
		ff_fuse_reply_errno(req, n);
	} else {
		buf[n] = '\0';
		fuse_reply_readlink(req, buf);
	}
	if (buf != small)
		free(buf);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	struct ff_statfs sf;
	struct statvfs out;
	int ret;

	(void)ino;
	ret = ff->fs->ops->statfs(ff->fs, &sf);
	if (ret < 0) {
		ff_fuse_reply_errno(req, ret);
		return;
	}
	memset(&out, 0, sizeof(out));
	out.f_bsize = sf.block_size ? sf.block_size : 4096;
	out.f_frsize = out.f_bsize;
	out.f_blocks = (sf.total_bytes + out.f_frsize - 1) / out.f_frsize;
	out.f_files = sf.inodes;
	out.f_namemax = sf.name_max ? sf.name_max : 255;
	out.f_flag = ST_RDONLY;
	fuse_reply_statfs(req, &out);
}

void ff_fuse_ops_node(struct fuse_lowlevel_ops *ops)
{
	ops->init = op_init;
	ops->lookup = op_lookup;
	ops->getattr = op_getattr;
	ops->readlink = op_readlink;
	ops->statfs = op_statfs;
}
