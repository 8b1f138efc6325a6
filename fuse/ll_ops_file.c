/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* open and read: the hot path.  No lock here; the reader's caches carry
 * their own. */
#include "fuse/ll.h"
#include "fuse/push.h"
#include "fuse/read_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct ff_fuse *ff = ff_fuse_req(req);

	(void)ino;
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	if (atomic_load_explicit(&ff->no_open, memory_order_relaxed)) {
		/* The kernel remembers this and opens by itself from now on,
		 * with FOPEN_KEEP_CACHE. */
		fuse_reply_err(req, ENOSYS);
		return;
	}
	fi->keep_cache = 1;
	fi->noflush = 1;
	fuse_reply_open(req, fi);
}

/* The reader writes straight into the buffer handed to the reply, so the
 * data is copied once, from the reader's cache to the kernel. */
int ff_fuse_answer_read(struct ff_fuse *ff, fuse_req_t req, uint64_t handle, size_t size,
			uint64_t off, int cached_only)
{
	char *buf = malloc(size ? size : 1);
	ssize_t n;

	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return 0;
	}
	if (cached_only)
		n = ff->fs->ops->read_cached(ff->fs, handle, buf, size, off);
	else
		n = ff->fs->ops->read(ff->fs, handle, buf, size, off);
	if (n == -EAGAIN && cached_only) {
		free(buf);
		return -EAGAIN;
	}
	if (n < 0)
		ff_fuse_reply_errno(req, n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
	return 0;
}

void ff_fuse_store(void *ctx, uint64_t handle, uint32_t size)
{
	struct ff_fuse *ff = ctx;
	struct fuse_bufvec bv = FUSE_BUFVEC_INIT(size);
	fuse_ino_t ino;
	char *buf;

	if (ff_fuse_nodeid(ff, handle, &ino) < 0 || !(buf = malloc(size)))
		return;
	/* Only whole files: the kernel marks the last page up to date only
	 * when the data stored reaches the end of the file. */
	if (ff->fs->ops->read(ff->fs, handle, buf, size, 0) == (ssize_t)size) {
		bv.buf[0].mem = buf;
		/* -ENOENT when the kernel has forgotten the node: nothing lost */
		(void)fuse_lowlevel_notify_store(ff->se, ino, 0, &bv, 0);
	}
	free(buf);
}

/* True when another request is already queued for the loop. */
static int others_waiting(const struct ff_fuse *ff)
{
	struct pollfd p = {.fd = ff->dev_fd, .events = POLLIN};

	return ff->dev_fd < 0 || poll(&p, 1, 0) != 0;
}

/* Reads the fs can serve from decoded data are answered here, on the
 * request loop.  The rest go to the pool's workers when other requests
 * wait, so those are not held up; when none waits (one reader reading
 * synchronously) handing over would only add a thread switch to the
 * reader's wait, and the loop answers it itself. */
static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	uint64_t h;
	int ret;

	(void)fi;
	ret = ff_fuse_handle(ff, ino, &h);
	if (ret < 0 || off < 0) {
		ff_fuse_reply_errno(req, ret < 0 ? ret : -EINVAL);
		return;
	}
	if (!(ff->pool && ff->fs->ops->read_cached &&
	      ff_fuse_answer_read(ff, req, h, size, (uint64_t)off, 1) == 0) &&
	    !(ff->pool && others_waiting(ff) &&
	      ff_read_pool_submit(ff->pool, req, h, size, (uint64_t)off) == 0))
		ff_fuse_answer_read(ff, req, h, size, (uint64_t)off, 0);
	/* after the answer (or its place in the queue): the file asked for
	 * goes first */
	if (ff->push && off == 0)
		ff_push_read(ff->push, h);
}

void ff_fuse_ops_file(struct fuse_lowlevel_ops *ops)
{
	ops->open = op_open;
	ops->read = op_read;
}
