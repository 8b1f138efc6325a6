/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Creating one entry on the target: directories, hard links, symlinks,
 * device nodes and new files, each refusing what exists unless --force and
 * never merging into an entry that differs only in case. */
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

/* ---- pass 1: the tree ---- */

/* Does the directory list an entry spelled exactly name?  (On a target
 * that ignores case, name can exist without being listed.) */
static int listed(int dirfd, const char *name)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int found = 0;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 1; /* cannot tell: treat it as an ordinary existing entry */
	}
	while (!found && (de = readdir(dir)))
		found = !strcmp(de->d_name, name);
	closedir(dir);
	return found;
}

/* d exists (EEXIST) and equals d->fold_first when case is ignored.  When
 * the directory does not list d under its own spelling, the target ignores
 * case and what exists is the entry just made from the other name: it is
 * neither replaced (even with --force) nor merged into.  Only names with a
 * case twin in the image get here, so the directory scan stays rare.  (The
 * inode numbers cannot tell: FUSE file systems such as fusefat give each
 * spelling its own.) */
static int folded_onto(struct ex *ex, const struct dst *d)
{
	if (!d->fold_first || listed(d->dirfd, d->name))
		return 0;
	ff_ex_fail(ex, d->rel, "already exists as \"%s\" (the target ignores case); not replaced",
	     d->fold_first);
	return 1;
}

/* After EEXIST, makes room for a new non-directory at d: refuses unless
 * --force, and never replaces a directory. */
int ff_ex_clear_slot(struct ex *ex, const struct dst *d)
{
	struct stat st;

	if (fstatat(d->dirfd, d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* gone meanwhile */
	if (folded_onto(ex, d))
		return -1;
	if (!ex->o->force || S_ISDIR(st.st_mode)) {
		ff_ex_fail(ex, d->rel, "already exists%s", ex->o->force ? " as a directory" :
								    " (use --force to replace)");
		return -1;
	}
	if (unlinkat(d->dirfd, d->name, 0) < 0) {
		ff_ex_fail(ex, d->rel, "removing the existing file: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int ff_ex_open_dir(struct ex *ex, const struct dst *d, mode_t mode)
{
	struct stat st;
	int fd, made = mkdirat(d->dirfd, d->name, mode) == 0;

	if (!made && errno != EEXIST) {
		ff_ex_fail_sys(ex, d->rel, "mkdir", errno);
		return -1;
	}
	if (!made && folded_onto(ex, d))
		return -1;
	fd = openat(d->dirfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ff_ex_fail(ex, d->rel, "%s", errno == ENOTDIR || errno == ELOOP
					       ? "exists and is not a directory"
					       : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_mode & S_ISGID)
		ex->sgid_dir = 1;
	return fd;
}

void ff_ex_make_link(struct ex *ex, const struct dst *d, const char *first)
{
	int fd = ff_open_beneath(ex->root, first, O_PATH, 0), r;
	char src[64];

	if (fd < 0) {
		ff_ex_fail(ex, d->rel, "hard link to %s: %s", first, strerror(errno));
		return;
	}
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	r = linkat(AT_FDCWD, src, d->dirfd, d->name, AT_SYMLINK_FOLLOW);
	if (r < 0 && errno == EEXIST && ff_ex_clear_slot(ex, d) == 0)
		r = linkat(AT_FDCWD, src, d->dirfd, d->name, AT_SYMLINK_FOLLOW);
	else if (r < 0 && errno == EEXIST)
		r = 0; /* reported by clear_slot */
	if (r < 0 && (errno == ENOSPC || errno == EDQUOT))
		ff_ex_fail_sys(ex, d->rel, "hard link", errno);
	else if (r < 0)
		ff_ex_fail(ex, d->rel, "hard link to %s: %s", first, strerror(errno));
	close(fd);
}

void ff_ex_make_symlink(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	char target[4097];
	ssize_t n = ex->fs->ops->readlink(ex->fs, h, target, sizeof(target) - 1);

	if (n < 0 || (size_t)n >= sizeof(target) || memchr(target, '\0', (size_t)n)) {
		ff_ex_fail(ex, d->rel, "reading symlink: %s", n < 0 ? strerror((int)-n) : "bad target");
		return;
	}
	target[n] = '\0';
	if (symlinkat(target, d->dirfd, d->name) < 0 &&
	    (errno != EEXIST || ff_ex_clear_slot(ex, d) < 0 || symlinkat(target, d->dirfd, d->name) < 0)) {
		if (errno == EEXIST)
			return; /* reported by clear_slot */
		ff_ex_fail_sys(ex, d->rel, "symlink", errno);
		return;
	}
	ff_ex_meta_at(ex, d, h, st);
}

void ff_ex_make_node(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	dev_t dev = makedev(st->rdev_major, st->rdev_minor);
	mode_t mode = (st->mode & S_IFMT) | 0600;

	if (mknodat(d->dirfd, d->name, mode, dev) < 0 &&
	    (errno != EEXIST || ff_ex_clear_slot(ex, d) < 0 || mknodat(d->dirfd, d->name, mode, dev) < 0)) {
		if (errno == EEXIST)
			return; /* reported by clear_slot */
		if (errno == EPERM && !ex->is_root) {
			/* said once, but an entry left out all the same: exit 1 */
			ff_ex_warn_once(ex, S_ISSOCK(st->mode) ? W_SOCKET : W_DEVICE,
				  "cannot create device nodes or sockets");
			atomic_fetch_add(&ex->errors, 1);
		}
		else
			ff_ex_fail_sys(ex, d->rel, "mknod", errno);
		return;
	}
	ff_ex_meta_at(ex, d, h, st);
}

/* Creates name in dirfd for writing; refuses an existing entry unless
 * --force (clear_slot reports it).  Returns the fd or -1. */
int ff_ex_create_fd(struct ex *ex, const struct dst *d, mode_t mode)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(d->dirfd, d->name, flags, mode);

	if (fd < 0 && errno == EEXIST) {
		if (ff_ex_clear_slot(ex, d) < 0)
			return -1;
		fd = openat(d->dirfd, d->name, flags, mode);
	}
	if (fd < 0)
		ff_ex_fail_sys(ex, d->rel, "create", errno);
	return fd;
}
