/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Restoring an entry's owner, extended attributes, mode and times, through
 * an open fd or at a name. */
#include "extract/ex_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/pool.h"
#include "extract/extract_safe.h"

/* ---- metadata ---- */

struct xnames {
	char *buf;
	size_t len, cap;
};

static int xattr_name(void *ctx, const char *name, size_t len)
{
	struct xnames *x = ctx;

	if (x->len + len + 1 > x->cap) {
		size_t cap = (x->cap + len + 1) * 2;
		char *b = realloc(x->buf, cap);

		if (!b)
			return 1;
		x->buf = b;
		x->cap = cap;
	}
	memcpy(x->buf + x->len, name, len);
	x->buf[x->len + len] = '\0';
	x->len += len + 1;
	return 0;
}

/* fd >= 0: set on fd; otherwise on path without following it. */
static void set_xattrs(struct ex *ex, const char *rel, uint64_t h, int fd, const char *path)
{
	struct xnames x = {0};
	uint8_t *val = NULL;
	size_t off;
	int r = ex->fs->ops->listxattr(ex->fs, h, xattr_name, &x);

	if (r < 0)
		ff_ex_fail(ex, rel, "reading xattrs: %s", strerror(-r));
	if (x.len)
		val = malloc(XATTR_MAX);
	for (off = 0; val && off < x.len; off += strlen(x.buf + off) + 1) {
		const char *name = x.buf + off;
		ssize_t n = ex->fs->ops->getxattr(ex->fs, h, name, val, XATTR_MAX);

		if (n < 0) {
			ff_ex_fail(ex, rel, "xattr %s: %s", name, strerror((int)-n));
			continue;
		}
		r = fd >= 0 ? fsetxattr(fd, name, val, (size_t)n, 0)
			    : lsetxattr(path, name, val, (size_t)n, 0);
		if (r < 0 && (errno == EPERM || errno == ENOTSUP || errno == EACCES))
			ff_ex_warn_once(ex, W_XATTR, "cannot set some extended attributes");
		else if (r < 0)
			ff_ex_fail(ex, rel, "setting xattr %s: %s", name, strerror(errno));
	}
	free(val);
	free(x.buf);
}

static void set_owner_ok(struct ex *ex, const struct ff_stat *st, int *do_chown)
{
	/* a new file is already ours unless a setgid directory gave it a group */
	*do_chown = ex->is_root &&
		    (st->uid != ex->uid || st->gid != ex->gid || ex->sgid_dir);
	if (!ex->is_root && (st->uid != ex->uid || st->gid != ex->gid))
		ff_ex_warn_once(ex, W_OWNER, "cannot restore file owners");
}

/* Owner, xattrs, mode, times through an open fd (files, directories). */
void ff_ex_meta_fd(struct ex *ex, const char *rel, uint64_t h, const struct ff_stat *st, int fd)
{
	struct timespec ts[2] = {{st->atime, 0}, {st->mtime, 0}};
	int own;

	set_owner_ok(ex, st, &own);
	if (own && fchown(fd, st->uid, st->gid) < 0)
		ff_ex_fail(ex, rel, "chown: %s", strerror(errno));
	set_xattrs(ex, rel, h, fd, NULL);
	/* files are created with their permission bits when the umask is 0 */
	if ((!S_ISREG(st->mode) || !ex->o->umask_cleared || (st->mode & 07000)) &&
	    fchmod(fd, st->mode & 07777) < 0)
		ff_ex_fail(ex, rel, "chmod: %s", strerror(errno));
	if (futimens(fd, ts) < 0)
		ff_ex_fail(ex, rel, "setting times: %s", strerror(errno));
}

/* The same for a symlink or special file just created at d. */
void ff_ex_meta_at(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	struct timespec ts[2] = {{st->atime, 0}, {st->mtime, 0}};
	char path[64 + 256];
	int own;

	set_owner_ok(ex, st, &own);
	if (own && fchownat(d->dirfd, d->name, st->uid, st->gid, AT_SYMLINK_NOFOLLOW) < 0)
		ff_ex_fail(ex, d->rel, "chown: %s", strerror(errno));
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", d->dirfd, d->name);
	set_xattrs(ex, d->rel, h, -1, path);
	if (!S_ISLNK(st->mode) && fchmodat(d->dirfd, d->name, st->mode & 07777, 0) < 0)
		ff_ex_fail(ex, d->rel, "chmod: %s", strerror(errno));
	if (utimensat(d->dirfd, d->name, ts, AT_SYMLINK_NOFOLLOW) < 0)
		ff_ex_fail(ex, d->rel, "setting times: %s", strerror(errno));
}
