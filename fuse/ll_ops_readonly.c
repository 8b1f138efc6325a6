/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Every operation that would change the image answers EROFS.  The mount is
 * also made with `ro`, so the kernel usually refuses first; these answer
 * whatever still gets through (e.g. a remount rw). */
#include "fuse/ll.h"

#include <errno.h>

static void erofs(fuse_req_t req)
{
	ff_fuse_touch(fuse_req_userdata(req));
	fuse_reply_err(req, EROFS);
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	(void)ino, (void)attr, (void)to_set, (void)fi;
	erofs(req);
}

static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		     dev_t rdev)
{
	(void)parent, (void)name, (void)mode, (void)rdev;
	erofs(req);
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	(void)parent, (void)name, (void)mode;
	erofs(req);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)parent, (void)name;
	erofs(req);
}

static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	(void)link, (void)parent, (void)name;
	erofs(req);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	(void)parent, (void)name, (void)newparent, (void)newname, (void)flags;
	erofs(req);
}

static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent, const char *newname)
{
	(void)ino, (void)newparent, (void)newname;
	erofs(req);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	(void)ino, (void)buf, (void)size, (void)off, (void)fi;
	erofs(req);
}

static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	(void)parent, (void)name, (void)mode, (void)fi;
	erofs(req);
}

static void op_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name, const char *value,
			size_t size, int flags)
{
	(void)ino, (void)name, (void)value, (void)size, (void)flags;
	erofs(req);
}

static void op_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	(void)ino, (void)name;
	erofs(req);
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset, off_t length,
			 struct fuse_file_info *fi)
{
	(void)ino, (void)mode, (void)offset, (void)length, (void)fi;
	erofs(req);
}

static void op_copy_file_range(fuse_req_t req, fuse_ino_t ino_in, off_t off_in,
			       struct fuse_file_info *fi_in, fuse_ino_t ino_out, off_t off_out,
			       struct fuse_file_info *fi_out, size_t len, int flags)
{
	(void)ino_in, (void)off_in, (void)fi_in, (void)ino_out, (void)off_out, (void)fi_out;
	(void)len, (void)flags;
	erofs(req);
}

void ff_fuse_ops_readonly(struct fuse_lowlevel_ops *ops)
{
	ops->setattr = op_setattr;
	ops->mknod = op_mknod;
	ops->mkdir = op_mkdir;
	ops->unlink = op_unlink;
	ops->rmdir = op_unlink; /* same signature, same answer */
	ops->symlink = op_symlink;
	ops->rename = op_rename;
	ops->link = op_link;
	ops->write = op_write;
	ops->create = op_create;
	ops->setxattr = op_setxattr;
	ops->removexattr = op_removexattr;
	ops->fallocate = op_fallocate;
	ops->copy_file_range = op_copy_file_range;
}
