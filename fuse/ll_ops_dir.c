/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* opendir, readdir, readdirplus, releasedir.
 *
 * Directory offsets handed to the kernel: 1 after ".", 2 after "..", and
 * cookie + FF_DIR_OFF_BASE after an entry the fs reported with that
 * readdir cookie, so any offset resumes exactly where the last reply
 * stopped. */
#include "fuse/ll.h"
#include "fuse/push.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FF_DIR_OFF_BASE 3

struct dir_fill {
	fuse_req_t req;
	const struct ff_fuse *ff;
	uint64_t dir;
	char *buf;
	size_t size, used;
	int plus;
	int err;
};

/* Attributes for one entry.  An entry whose inode cannot be read still
 * appears (node id 0 tells the kernel "no attributes, look it up"), so one
 * damaged inode gives EIO on that name only, not on the whole listing. */
static void entry_attr(const struct dir_fill *d, uint64_t handle, uint32_t mode,
		       struct fuse_entry_param *e)
{
	if (ff_fuse_entry(d->ff, handle, e) == 0)
		return;
	memset(e, 0, sizeof(*e));
	e->attr.st_ino = (ino_t)handle;
	e->attr.st_mode = (mode_t)mode;
}

/* Returns 1 when the reply buffer is full. */
static int add_entry(struct dir_fill *d, const char *name, uint64_t handle, uint32_t mode,
		     off_t next)
{
	struct fuse_entry_param e;
	char *at = d->buf + d->used;
	size_t room = d->size - d->used, need;

	entry_attr(d, handle, mode, &e);
	if (d->plus)
		need = fuse_add_direntry_plus(d->req, at, room, name, &e, next);
	else
		need = fuse_add_direntry(d->req, at, room, name, &e.attr, next);
	if (need > room)
		return 1;
	d->used += need;
	/* The kernel now knows the node, and a walker will read the files in
	 * this order: candidates to push (push.c). */
	if (d->plus && d->ff->push && e.ino)
		ff_push_listed(d->ff->push, d->dir, handle, (uint32_t)e.attr.st_mode,
			       (uint64_t)e.attr.st_size);
	return 0;
}

static int is_dot_name(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

static int fs_entry(void *ctx, const char *name, size_t name_len, uint64_t handle,
		    uint32_t mode, uint64_t cookie)
{
	struct dir_fill *d = ctx;
	char nm[1024];

	if (is_dot_name(name, name_len))
		return 0; /* we add our own */
	if (name_len == 0 || name_len >= sizeof(nm) || cookie == 0 ||
	    cookie > (uint64_t)INT64_MAX - FF_DIR_OFF_BASE) {
		ff_fs_log(d->ff->fs, "directory entry of handle %llu: bad name length %zu or "
			  "readdir cookie %llu", (unsigned long long)handle, name_len,
			  (unsigned long long)cookie);
		d->err = -EIO;
		return 1;
	}
	memcpy(nm, name, name_len);
	nm[name_len] = '\0';
	return add_entry(d, nm, handle, mode, (off_t)(cookie + FF_DIR_OFF_BASE));
}

static int fill_dir(struct dir_fill *d, uint64_t dir, off_t off)
{
	struct ff_fs *fs = d->ff->fs;
	uint64_t start = off >= FF_DIR_OFF_BASE ? (uint64_t)off - FF_DIR_OFF_BASE : 0;
	int ret;

	/* ".." gets the directory itself: the interface has no parent link,
	 * and only the name matters to readers of "..". */
	if (off < 1 && add_entry(d, ".", dir, S_IFDIR, 1))
		return 0;
	if (off < 2 && add_entry(d, "..", dir, S_IFDIR, 2))
		return 0;
	ret = fs->ops->readdir(fs, dir, start, fs_entry, d);
	return ret < 0 ? ret : d->err;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off, int plus)
{
	struct dir_fill d = {.req = req, .ff = ff_fuse_req(req), .size = size, .plus = plus};
	uint64_t dir;
	int ret;

	ret = ff_fuse_handle(d.ff, ino, &dir);
	d.dir = dir;
	if (ret < 0 || off < 0) {
		ff_fuse_reply_errno(req, ret < 0 ? ret : -EINVAL);
		return;
	}
	d.buf = malloc(size ? size : 1);
	if (!d.buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	ret = fill_dir(&d, dir, off);
	/* Entries already gathered go out; the error comes on the next call,
	 * which resumes at the failing entry. */
	if (ret < 0 && d.used == 0)
		ff_fuse_reply_errno(req, ret);
	else
		fuse_reply_buf(req, d.buf, d.used);
	free(d.buf);
	/* A later part: the requester has linked the first part's nodes, so
	 * they can be stored into (push.c). */
	if (plus && off > 0 && d.ff->push)
		ff_push_listing_on(d.ff->push, dir);
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	(void)fi;
	do_readdir(req, ino, size, off, 0);
}

static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
			   struct fuse_file_info *fi)
{
	(void)fi;
	do_readdir(req, ino, size, off, 1);
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct ff_fuse *ff = ff_fuse_req(req);

	(void)ino;
	if (atomic_load_explicit(&ff->no_opendir, memory_order_relaxed)) {
		/* From now on the kernel opens directories by itself, with
		 * FOPEN_KEEP_CACHE | FOPEN_CACHE_DIR. */
		fuse_reply_err(req, ENOSYS);
		return;
	}
	fi->cache_readdir = 1;
	fi->keep_cache = 1;
	fuse_reply_open(req, fi);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino, (void)fi;
	fuse_reply_err(req, 0);
}

void ff_fuse_ops_dir(struct fuse_lowlevel_ops *ops)
{
	ops->opendir = op_opendir;
	ops->readdir = op_readdir;
	ops->readdirplus = op_readdirplus;
	ops->releasedir = op_releasedir;
}
