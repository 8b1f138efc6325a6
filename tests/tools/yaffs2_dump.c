/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Test tool: open a YAFFS2 image through ff_yaffs2_open and walk the
 * common/fs.h interface.
 *   yaffs2_dump [OPTS] IMAGE info            key=value lines
 *   yaffs2_dump [OPTS] IMAGE check           problems, exit 1 if any
 *   yaffs2_dump [OPTS] IMAGE extract DIR     write the tree (owners, modes,
 *                                            times, xattrs, hard links)
 * OPTS: --page-size N --oob-size N --pages-per-block N --layout L
 *       --endian little|big
 * Exit: 0 ok, 1 problems, 2 error. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/fs.h"
#include "yaffs2/reader.h"

struct ext {
	struct ff_fs *fs;
	char **link_paths; /* by handle, first extracted path of a file */
	int errors;
};

static void log_cb(void *ctx, const struct ff_warning *w)
{
	(void)ctx;
	fprintf(stderr, "yaffs2_dump: %s\n", w->msg);
}

/* key=value for each value (booleans as yes/no), groups left out */
static void info_cb(void *ctx, const struct ff_info_item *it)
{
	(void)ctx;
	if (it->type == FF_INFO_STR)
		printf("%s=%s\n", it->key, it->str);
	else if (it->type == FF_INFO_UINT)
		printf("%s=%llu\n", it->key, (unsigned long long)it->num);
	else if (it->type == FF_INFO_BOOL)
		printf("%s=%s\n", it->key, it->num ? "yes" : "no");
}

static void problem_cb(void *ctx, const char *what)
{
	(void)ctx;
	printf("problem: %s\n", what);
}

static void fail(struct ext *e, const char *path, const char *what)
{
	fprintf(stderr, "yaffs2_dump: %s: %s: %s\n", path, what, strerror(errno));
	e->errors++;
}

static void copy_file(struct ext *e, uint64_t h, const char *path, const struct ff_stat *st)
{
	static char buf[1 << 16];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	uint64_t off = 0;

	if (fd < 0)
		return fail(e, path, "create");
	while (off < st->size) {
		ssize_t n = e->fs->ops->read(e->fs, h, buf, sizeof(buf), off);
		int zero = 1;

		if (n <= 0) {
			errno = n < 0 ? (int)-n : EIO;
			fail(e, path, "read");
			break;
		}
		for (ssize_t i = 0; i < n && zero; i++)
			zero = !buf[i];
		if (zero ? lseek(fd, n, SEEK_CUR) < 0 : write(fd, buf, (size_t)n) != n) {
			fail(e, path, "write");
			break;
		}
		off += (uint64_t)n;
	}
	if (ftruncate(fd, (off_t)st->size))
		fail(e, path, "truncate");
	close(fd);
}

struct xctx {
	struct ext *e;
	uint64_t h;
	const char *path;
};

static int xattr_cb(void *ctx, const char *name, size_t name_len)
{
	struct xctx *x = ctx;
	char key[256], val[65536];
	ssize_t n;

	if (name_len >= sizeof(key))
		return 0;
	memcpy(key, name, name_len);
	key[name_len] = 0;
	n = x->e->fs->ops->getxattr(x->e->fs, x->h, key, val, sizeof(val));
	if (n < 0 || lsetxattr(x->path, key, val, (size_t)n, 0))
		fail(x->e, x->path, "setxattr");
	return 0;
}

static void set_meta(struct ext *e, uint64_t h, const char *path, const struct ff_stat *st)
{
	struct timespec ts[2] = { { st->atime, 0 }, { st->mtime, 0 } };
	struct xctx x = { e, h, path };

	if (lchown(path, st->uid, st->gid))
		fail(e, path, "chown");
	if (!S_ISLNK(st->mode) && chmod(path, st->mode & 07777))
		fail(e, path, "chmod");
	e->fs->ops->listxattr(e->fs, h, xattr_cb, &x);
	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW))
		fail(e, path, "utimes");
}

static void extract(struct ext *e, uint64_t h, const char *path);

struct dctx {
	struct ext *e;
	const char *dir;
};

static int dir_cb(void *ctx, const char *name, size_t len, uint64_t h, uint32_t mode,
		  uint64_t cookie)
{
	struct dctx *d = ctx;
	char path[8192];

	(void)mode;
	(void)cookie;
	snprintf(path, sizeof(path), "%s/%.*s", d->dir, (int)len, name);
	extract(d->e, h, path);
	return 0;
}

static int make_node(struct ext *e, uint64_t h, const char *path, const struct ff_stat *st)
{
	char target[4096];
	ssize_t n;

	if (S_ISDIR(st->mode))
		return mkdir(path, 0700) && errno != EEXIST ? -1 : 0;
	if (S_ISREG(st->mode)) {
		copy_file(e, h, path, st);
		return 0;
	}
	if (S_ISLNK(st->mode)) {
		n = e->fs->ops->readlink(e->fs, h, target, sizeof(target) - 1);
		if (n < 0)
			return -1;
		target[n] = 0;
		return symlink(target, path);
	}
	return mknod(path, st->mode, makedev(st->rdev_major, st->rdev_minor));
}

static void extract(struct ext *e, uint64_t h, const char *path)
{
	struct ff_stat st;
	struct dctx d = { e, path };

	if (e->fs->ops->getattr(e->fs, h, &st)) {
		errno = EIO;
		return fail(e, path, "getattr");
	}
	if (S_ISREG(st.mode) && st.nlink > 1 && h <= 0x3ffff && e->link_paths[h]) {
		if (link(e->link_paths[h], path))
			fail(e, path, "link");
		return;
	}
	if (make_node(e, h, path, &st))
		return fail(e, path, "create");
	if (S_ISREG(st.mode) && st.nlink > 1 && h <= 0x3ffff)
		e->link_paths[h] = strdup(path);
	if (S_ISDIR(st.mode))
		e->fs->ops->readdir(e->fs, h, 0, dir_cb, &d);
	set_meta(e, h, path, &st);
}

static int parse_opts(int *i, int argc, char **argv, struct ff_flash_hint *o)
{
	for (; *i + 1 < argc && !strncmp(argv[*i], "--", 2); *i += 2) {
		const char *k = argv[*i], *v = argv[*i + 1];

		if (!strcmp(k, "--page-size"))
			o->page_size = (uint32_t)atoi(v);
		else if (!strcmp(k, "--oob-size"))
			o->oob_size = (uint32_t)atoi(v);
		else if (!strcmp(k, "--pages-per-block"))
			o->pages_per_block = (uint32_t)atoi(v);
		else if (!strcmp(k, "--layout"))
			o->oob_layout = v;
		else if (!strcmp(k, "--endian"))
			o->byte_order = !strcmp(v, "big") ? FF_ORDER_BIG : FF_ORDER_LITTLE;
		else
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ff_open_opts o = { .log = log_cb }; /* 0 / NULL: detect */
	struct ff_err err = { 0, "" };
	struct ext e = { 0 };
	int i = 1;
	long probs;

	if (parse_opts(&i, argc, argv, &o.flash) || argc - i < 2) {
		fprintf(stderr, "usage: yaffs2_dump [OPTS] IMAGE info|check|extract DIR\n");
		return 2;
	}
	if (ff_yaffs2_open(argv[i], &o, &e.fs, &err)) {
		fprintf(stderr, "yaffs2_dump: %s\n", err.msg);
		return 2;
	}
	if (!strcmp(argv[i + 1], "info")) {
		e.fs->ops->info(e.fs, info_cb, NULL);
	} else if (!strcmp(argv[i + 1], "check")) {
		probs = e.fs->ops->check(e.fs, problem_cb, NULL);
		e.errors = probs != 0;
	} else if (!strcmp(argv[i + 1], "extract") && argc - i == 3) {
		e.link_paths = calloc(0x40000, sizeof(char *));
		extract(&e, e.fs->ops->root(e.fs), argv[i + 2]);
		for (int k = 0; k < 0x40000; k++)
			free(e.link_paths[k]);
		free(e.link_paths);
	} else {
		fprintf(stderr, "yaffs2_dump: unknown command %s\n", argv[i + 1]);
		ff_fs_close(e.fs);
		return 2;
	}
	ff_fs_close(e.fs);
	return e.errors ? 1 : 0;
}
