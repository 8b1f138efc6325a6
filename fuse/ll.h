/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The FUSE low-level side of `flashfs mount`: one context shared by every
 * request thread, and the callbacks that translate FUSE requests into calls
 * of the read-only interface (common/fs.h).  Nothing here knows a format.
 *
 * The context is read-only after init except for the atomics, so the
 * request path takes no lock of its own; caching and its locking are the
 * reader's business.  One thread receives requests (session.c); reads
 * that must wait for decompression go to the read pool (read_pool.h). */
#ifndef FF_FUSE_LL_H
#define FF_FUSE_LL_H

#define FUSE_USE_VERSION 312

#include <fuse_lowlevel.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/stat.h>

#include "common/fs.h"

/* The image never changes under the mount, so the kernel may keep entries
 * and attributes for as long as it likes (one year). */
#define FF_FUSE_CACHE_SECONDS (365.0 * 24 * 3600)

struct ff_fuse {
	struct ff_fs *fs;
	uint64_t root;       /* the handle FUSE_ROOT_ID stands for (subdir=) */
	int64_t uid, gid;    /* -1: as stored in the image */
	uint32_t blksize;    /* st_blksize: the format's block size */
	uint32_t max_read;   /* bytes per READ request; 0 = kernel's limit */
	atomic_int no_open;  /* kernel opens files/dirs without asking us */
	atomic_int no_opendir;
	/* CLOCK_MONOTONIC seconds of the latest request, for timeout= */
	atomic_llong last_active;
	/* workers for reads that must wait (read_pool.h); NULL: answer inline */
	struct ff_read_pool *pool;
	int dev_fd;          /* the session's /dev/fuse descriptor, -1 unknown */
	/* small files pushed into the page cache ahead of a walk (push.h);
	 * NULL: off, or no read pool to push from */
	struct ff_push *push;
	struct fuse_session *se;
};

/* Fill the context; root is the handle of the mounted directory. */
void ff_fuse_init_ctx(struct ff_fuse *ff, struct ff_fs *fs, uint64_t root, int64_t uid,
		      int64_t gid);

/* FUSE node ids <-> fs handles: the mounted root is FUSE_ROOT_ID, every
 * other handle h is h + 2, so the mapping is stateless and lock-free.
 * Returns 0, or -EIO for a handle too large to map. */
int ff_fuse_nodeid(const struct ff_fuse *ff, uint64_t handle, fuse_ino_t *ino);
/* Returns 0, or -EINVAL for node id 0. */
int ff_fuse_handle(const struct ff_fuse *ff, fuse_ino_t ino, uint64_t *handle);

/* ff_stat -> struct stat, applying the uid=/gid= overrides. */
void ff_fuse_stat(const struct ff_fuse *ff, const struct ff_stat *in, struct stat *out);

/* getattr of `handle` into a complete entry reply (node id, attributes,
 * timeouts).  Returns 0 or -errno. */
int ff_fuse_entry(const struct ff_fuse *ff, uint64_t handle, struct fuse_entry_param *e);

/* Note that a request arrived (cheap: one relaxed store per second). */
void ff_fuse_touch(struct ff_fuse *ff);
long long ff_fuse_now(void);

/* Fill the operation table: every read operation, EROFS for writes. */
void ff_fuse_ops(struct fuse_lowlevel_ops *ops);

/* Per-area fillers used by ff_fuse_ops (one file each). */
void ff_fuse_ops_node(struct fuse_lowlevel_ops *ops);
void ff_fuse_ops_dir(struct fuse_lowlevel_ops *ops);
void ff_fuse_ops_file(struct fuse_lowlevel_ops *ops);
void ff_fuse_ops_xattr(struct fuse_lowlevel_ops *ops);
void ff_fuse_ops_readonly(struct fuse_lowlevel_ops *ops);

/* The context of a request, marked active. */
struct ff_fuse *ff_fuse_req(fuse_req_t req);

/* Answers a READ of `size` bytes at `off` of `handle`.  With cached_only
 * it answers only when the fs can serve it from decoded data and returns
 * -EAGAIN (not answered) otherwise; else it always answers and returns 0. */
int ff_fuse_answer_read(struct ff_fuse *ff, fuse_req_t req, uint64_t handle, size_t size,
			uint64_t off, int cached_only);

/* Reads the whole of `handle` (size bytes) and stores it in the kernel's
 * page cache for its node (push.h); a failure only means it is not
 * pushed, and the walker's own READ then meets the error. */
void ff_fuse_store(void *ff, uint64_t handle, uint32_t size);

/* Reply with a negative errno from the fs interface. */
void ff_fuse_reply_errno(fuse_req_t req, long neg_errno);

#endif
