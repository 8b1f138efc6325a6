/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* listxattr / getxattr with the size-probe protocol: a request of size 0
 * asks only for the length; a buffer too small gets ERANGE. */
#include "fuse/ll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

struct name_list {
	struct ff_vec buf;    /* bytes: each name and its NUL */
	int err;
};

static int add_name(void *ctx, const char *name, size_t name_len)
{
	struct name_list *l = ctx;

	if (ff_vec_append(&l->buf, name, name_len) < 0 || ff_vec_push(&l->buf, "") < 0) {
		l->err = -ENOMEM;
		return 1;
	}
	return 0;
}

static void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	struct name_list l = { .buf = FF_VEC_INIT(char) };
	uint64_t h;
	int ret;

	ret = ff_fuse_handle(ff, ino, &h);
	if (ret == 0)
		ret = ff->fs->ops->listxattr(ff->fs, h, add_name, &l);
	if (ret == 0)
		ret = l.err;
	if (ret < 0)
		ff_fuse_reply_errno(req, ret);
	else if (size == 0)
		fuse_reply_xattr(req, l.buf.len);
	else if (l.buf.len > size)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, l.buf.data, l.buf.len);
	ff_vec_free(&l.buf);
}

static void op_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name, size_t size)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	char *buf = NULL;
	ssize_t n;
	uint64_t h;
	int ret;

	ret = ff_fuse_handle(ff, ino, &h);
	if (ret < 0) {
		ff_fuse_reply_errno(req, ret);
		return;
	}
	if (size && !(buf = malloc(size))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	n = ff->fs->ops->getxattr(ff->fs, h, name, buf, size);
	if (n < 0)
		ff_fuse_reply_errno(req, n);
	else if (size == 0)
		fuse_reply_xattr(req, (size_t)n);
	else if ((size_t)n > size)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
}

void ff_fuse_ops_xattr(struct fuse_lowlevel_ops *ops)
{
	ops->listxattr = op_listxattr;
	ops->getxattr = op_getxattr;
}
