/* open and read: the hot path.  No lock here; the reader's caches carry
 * their own. */
#include "fuse/ll.h"

#include <errno.h>
#include <fcntl.h>
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
static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	uint64_t h;
	ssize_t n;
	char *buf;
	int ret;

	(void)fi;
	ret = ff_fuse_handle(ff, ino, &h);
	if (ret < 0 || off < 0) {
		ff_fuse_reply_errno(req, ret < 0 ? ret : -EINVAL);
		return;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	n = ff->fs->ops->read(ff->fs, h, buf, size, (uint64_t)off);
	if (n < 0)
		ff_fuse_reply_errno(req, n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

void ff_fuse_ops_file(struct fuse_lowlevel_ops *ops)
{
	ops->open = op_open;
	ops->read = op_read;
}
