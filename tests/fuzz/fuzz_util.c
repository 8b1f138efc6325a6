/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "tests/fuzz/fuzz_util.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WALK_MAX_DEPTH 12
#define WALK_MAX_NODES 2000
#define WALK_MAX_ENTRIES 512      /* per directory */
#define WALK_READ_BUDGET (4u << 20)
#define WALK_CHUNK 65536

static int write_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			return -1;
		data += n;
		size -= (size_t)n;
	}
	return 0;
}

int fuzz_memfd(const uint8_t *data, size_t size, int *fd, char *path, size_t cap)
{
	*fd = memfd_create("fuzz-image", MFD_CLOEXEC);
	if (*fd < 0)
		abort();
	if (write_all(*fd, data, size))
		abort();
	snprintf(path, cap, "/proc/self/fd/%d", *fd);
	return 0;
}

/* The directories fuzz_tmp_dir made, removed with their contents when the
 * fuzzer exits (libFuzzer ends a -runs pass with exit()): CI's passes left
 * hundreds of them in /tmp. */
#define FUZZ_TMP_DIRS 4
static char tmp_dirs[FUZZ_TMP_DIRS][64];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	/* best effort: a file that is already gone is fine */
	(void)(flag == FTW_DP ? rmdir(path) : unlink(path));
	return 0;
}

static void remove_tmp_dirs(void)
{
	for (int i = 0; i < FUZZ_TMP_DIRS; i++)
		if (tmp_dirs[i][0])
			nftw(tmp_dirs[i], remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_tmp_dir(const char *prefix)
{
	int i = 0;

	while (i < FUZZ_TMP_DIRS && tmp_dirs[i][0])
		i++;
	if (i == FUZZ_TMP_DIRS)
		abort();
	snprintf(tmp_dirs[i], sizeof(tmp_dirs[i]), "%s/%s.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
	if (!mkdtemp(tmp_dirs[i]))
		abort();
	if (i == 0)
		atexit(remove_tmp_dirs);
	return tmp_dirs[i];
}

int fuzz_tmp_file(const uint8_t *data, size_t size, const char *name, char *path,
		  size_t cap)
{
	/* One directory per fuzzing process; its contents are recreated per input. */
	static const char *dir;
	int fd;

	if (!dir)
		dir = fuzz_tmp_dir("ff-fuzz");
	snprintf(path, cap, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, data, size))
		abort();
	close(fd);
	return 0;
}

static void discard_log(void *ctx, const struct ff_warning *w)
{
	(void)ctx;
	(void)w;
}

void fuzz_open_opts(struct ff_open_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->log = discard_log;
	o->cache_bytes = 1u << 20;
}

struct walk {
	struct ff_fs *fs;
	unsigned nodes;
	size_t read_left;
	char buf[WALK_CHUNK];
};

struct dirent_list {
	uint64_t handles[WALK_MAX_ENTRIES];
	char names[WALK_MAX_ENTRIES][256];
	size_t name_lens[WALK_MAX_ENTRIES];
	size_t n;
	uint64_t last_cookie;
};

static int collect(void *ctx, const char *name, size_t name_len, uint64_t handle,
		   uint32_t mode, uint64_t cookie)
{
	struct dirent_list *l = ctx;

	(void)mode;
	if (l->n >= WALK_MAX_ENTRIES)
		return 1;
	if (name_len > 255)
		name_len = 255;
	memcpy(l->names[l->n], name, name_len);
	l->name_lens[l->n] = name_len;
	l->handles[l->n] = handle;
	l->last_cookie = cookie;
	l->n++;
	return 0;
}

struct xattr_list {
	char names[16][256];
	size_t n;
};

static int collect_xattr(void *ctx, const char *name, size_t name_len)
{
	struct xattr_list *xl = ctx;

	if (xl->n >= 16 || name_len >= sizeof(xl->names[0]))
		return 1;
	memcpy(xl->names[xl->n], name, name_len);
	xl->names[xl->n][name_len] = '\0';
	xl->n++;
	return 0;
}

static void walk_xattrs(struct walk *w, uint64_t h)
{
	/* listxattr only hands out names; fetch each value in a second pass,
	 * first its length (cap 0), then into a buffer that may be too small. */
	struct xattr_list *xl = calloc(1, sizeof(*xl));

	if (!xl)
		abort();
	w->fs->ops->listxattr(w->fs, h, collect_xattr, xl);
	for (size_t i = 0; i < xl->n; i++) {
		ssize_t len = w->fs->ops->getxattr(w->fs, h, xl->names[i], NULL, 0);

		w->fs->ops->getxattr(w->fs, h, xl->names[i], w->buf, sizeof(w->buf));
		if (len > 1)
			w->fs->ops->getxattr(w->fs, h, xl->names[i], w->buf, (size_t)len - 1);
	}
	w->fs->ops->getxattr(w->fs, h, "user.absent", w->buf, sizeof(w->buf));
	free(xl);
}

static void read_file(struct walk *w, uint64_t h, const struct ff_stat *st)
{
	uint64_t off = 0;

	while (off < st->size && w->read_left) {
		size_t len = w->read_left < WALK_CHUNK ? w->read_left : WALK_CHUNK;
		ssize_t n = w->fs->ops->read(w->fs, h, w->buf, len, off);

		if (n <= 0)
			break;
		if ((size_t)n > len)
			abort(); /* more than asked for: a contract violation */
		w->read_left -= (size_t)n;
		off += (uint64_t)n;
	}
	/* The tail too: block-index arithmetic near a huge (possibly sparse) size. */
	if (st->size > 16)
		w->fs->ops->read(w->fs, h, w->buf, 64, st->size - 16);
	w->fs->ops->read(w->fs, h, w->buf, 16, st->size);
}

static void walk_node(struct walk *w, uint64_t h, unsigned depth);

static void walk_dir(struct walk *w, uint64_t h, unsigned depth)
{
	struct dirent_list *l = calloc(1, sizeof(*l));
	uint64_t found;

	if (!l)
		abort();
	if (w->fs->ops->readdir(w->fs, h, 0, collect, l) == 0) {
		for (size_t i = 0; i < l->n && w->nodes < WALK_MAX_NODES; i++) {
			w->fs->ops->lookup(w->fs, h, l->names[i], l->name_lens[i], &found);
			walk_node(w, l->handles[i], depth + 1);
		}
		/* Resume from a cookie, as FUSE does. */
		if (l->n) {
			uint64_t c = l->last_cookie;

			l->n = 0;
			w->fs->ops->readdir(w->fs, h, c, collect, l);
		}
	}
	w->fs->ops->lookup(w->fs, h, "no-such-name", 12, &found);
	free(l);
}

static void walk_node(struct walk *w, uint64_t h, unsigned depth)
{
	struct ff_stat st;

	if (depth > WALK_MAX_DEPTH || w->nodes >= WALK_MAX_NODES)
		return;
	w->nodes++;
	if (w->fs->ops->getattr(w->fs, h, &st) < 0)
		return;
	walk_xattrs(w, h);
	switch (st.mode & 0170000) {
	case 0040000:
		walk_dir(w, h, depth);
		break;
	case 0100000:
		read_file(w, h, &st);
		break;
	case 0120000:
		w->fs->ops->readlink(w->fs, h, w->buf, sizeof(w->buf));
		w->fs->ops->readlink(w->fs, h, w->buf, 3);
		break;
	default:
		break;
	}
}

/* The callbacks read every string they are handed, so ASan sees a string
 * that is not terminated or points into freed memory. */
static size_t touch(const char *s)
{
	volatile size_t n = strlen(s);

	return n;
}

static void info_sink(void *ctx, const struct ff_info_item *it)
{
	(void)ctx;
	if (it->key)
		touch(it->key);
	if ((it->type == FF_INFO_STR || it->type == FF_INFO_NULL) && it->str)
		touch(it->str);
	if (it->text)
		touch(it->text);
}

static void problem_sink(void *ctx, const char *what)
{
	(void)ctx;
	touch(what);
}

void fuzz_walk_fs(struct ff_fs *fs, int run_check)
{
	struct walk *w = malloc(sizeof(*w));
	struct ff_statfs sf;

	if (!w)
		abort();
	w->fs = fs;
	w->nodes = 0;
	w->read_left = WALK_READ_BUDGET;
	fs->ops->statfs(fs, &sf);
	fs->ops->info(fs, info_sink, NULL);
	walk_node(w, fs->ops->root(fs), 0);
	if (run_check)
		fs->ops->check(fs, problem_sink, NULL);
	free(w);
}
