/* listxattr / getxattr with the size-probe protocol: a request of size 0
 * asks only for the length; a buffer too small gets ERANGE. */
#include "fuse/ll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct name_list {
	char *buf;
	size_t len, cap;
	int err;
};

static int add_name(void *ctx, const char *name, size_t name_len)
{
	struct name_list *l = ctx;
	size_t need = l->len + name_len + 1;

	if (need > l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		char *p;

		while (cap < need)
			cap *= 2;
		p = realloc(l->buf, cap);
		if (!p) {
			l->err = -ENOMEM;
			return 1;
		}
		l->buf = p;
		l->cap = cap;
	}
	memcpy(l->buf + l->len, name, name_len);
	l->buf[l->len + name_len] = '\0';
	l->len = need;
	return 0;
}

static void op_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	struct ff_fuse *ff = ff_fuse_req(req);
	struct name_list l = {0};
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
		fuse_reply_xattr(req, l.len);
	else if (l.len > size)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, l.buf, l.len);
	free(l.buf);
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
