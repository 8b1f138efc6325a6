/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* open and read: the hot path.  No lock here; the reader's caches carry
 * their own. */
#include "fuse/ll.h"
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
	if (ff->pool && ff->fs->ops->read_cached &&
	    ff_fuse_answer_read(ff, req, h, size, (uint64_t)off, 1) == 0)
		return;
	if (ff->pool && others_waiting(ff) &&
	    ff_read_pool_submit(ff->pool, req, h, size, (uint64_t)off) == 0)
		return;
	ff_fuse_answer_read(ff, req, h, size, (uint64_t)off, 0);
}

void ff_fuse_ops_file(struct fuse_lowlevel_ops *ops)
{
	ops->open = op_open;
	ops->read = op_read;
}
