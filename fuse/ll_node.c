/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Node ids, attribute conversion and request bookkeeping shared by every
 * FUSE callback. */
#include "fuse/ll.h"

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>

void ff_fuse_init_ctx(struct ff_fuse *ff, struct ff_fs *fs, uint64_t root, int64_t uid,
		      int64_t gid)
{
	struct ff_statfs sf;

	memset(ff, 0, sizeof(*ff));
	ff->fs = fs;
	ff->root = root;
	ff->uid = uid;
	ff->gid = gid;
	ff->blksize = 4096;
	if (fs->ops->statfs(fs, &sf) == 0 && sf.block_size >= 512 && sf.block_size <= (1u << 24))
		ff->blksize = (uint32_t)sf.block_size;
	atomic_init(&ff->no_open, 0);
	atomic_init(&ff->no_opendir, 0);
	atomic_init(&ff->last_active, ff_fuse_now());
	ff->dev_fd = -1;
}

int ff_fuse_nodeid(const struct ff_fuse *ff, uint64_t handle, fuse_ino_t *ino)
{
	if (handle == ff->root) {
		*ino = FUSE_ROOT_ID;
		return 0;
	}
	if (handle > UINT64_MAX - 2) {
		ff_fs_log(ff->fs, "handle %llu: too large for a FUSE node id",
			  (unsigned long long)handle);
		return -EIO;
	}
	*ino = (fuse_ino_t)(handle + 2);
	return 0;
}

int ff_fuse_handle(const struct ff_fuse *ff, fuse_ino_t ino, uint64_t *handle)
{
	if (ino == FUSE_ROOT_ID) {
		*handle = ff->root;
		return 0;
	}
	if (ino < 2)
		return -EINVAL;
	*handle = (uint64_t)ino - 2;
	return 0;
}

void ff_fuse_stat(const struct ff_fuse *ff, const struct ff_stat *in, struct stat *out)
{
	memset(out, 0, sizeof(*out));
	out->st_ino = (ino_t)in->ino;
	out->st_mode = (mode_t)in->mode;
	out->st_nlink = (nlink_t)in->nlink;
	out->st_uid = ff->uid >= 0 ? (uid_t)ff->uid : (uid_t)in->uid;
	out->st_gid = ff->gid >= 0 ? (gid_t)ff->gid : (gid_t)in->gid;
	out->st_size = (off_t)in->size;
	out->st_blocks = (blkcnt_t)in->blocks;
	out->st_blksize = (blksize_t)ff->blksize;
	out->st_rdev = makedev(in->rdev_major, in->rdev_minor);
	out->st_atim.tv_sec = (time_t)in->atime;
	out->st_mtim.tv_sec = (time_t)in->mtime;
	out->st_ctim.tv_sec = (time_t)in->ctime;
}

int ff_fuse_entry(const struct ff_fuse *ff, uint64_t handle, struct fuse_entry_param *e)
{
	struct ff_stat st;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = ff->fs->ops->getattr(ff->fs, handle, &st);
	if (ret < 0)
		return ret;
	ret = ff_fuse_nodeid(ff, handle, &e->ino);
	if (ret < 0)
		return ret;
	ff_fuse_stat(ff, &st, &e->attr);
	e->attr_timeout = FF_FUSE_CACHE_SECONDS;
	e->entry_timeout = FF_FUSE_CACHE_SECONDS;
	return 0;
}

long long ff_fuse_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec;
}

void ff_fuse_touch(struct ff_fuse *ff)
{
	long long now = ff_fuse_now();

	/* Store only when the second changes, so concurrent requests do not
	 * keep bouncing one cache line between cores. */
	if (atomic_load_explicit(&ff->last_active, memory_order_relaxed) != now)
		atomic_store_explicit(&ff->last_active, now, memory_order_relaxed);
}

struct ff_fuse *ff_fuse_req(fuse_req_t req)
{
	struct ff_fuse *ff = fuse_req_userdata(req);

	ff_fuse_touch(ff);
	return ff;
}

void ff_fuse_reply_errno(fuse_req_t req, long neg_errno)
{
	int err = (int)-neg_errno;

	if (err <= 0 || err > 4095)
		err = EIO;
	fuse_reply_err(req, err);
}
