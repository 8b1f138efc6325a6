/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* image/dir_fs.c and diff/diff.c on host directories made here: the
 * directory's fs.h answers (names that would leave the tree, hard links
 * sharing a handle, readdir resumed from a cookie, the whole length of a
 * long symlink target, xattr size probes, short reads only at the end),
 * then the records ff_diff hands its callback (kinds, values, the ignore
 * mask, stopping early, an unreadable tree). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "diff/diff.h"
#include "image/dir_fs.h"
#include "image/image.h"

static char top[256];

static void put_file(const char *dir, const char *name, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void path(char *out, size_t cap, const char *a, const char *b)
{
	snprintf(out, cap, "%s/%s", a, b);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	(void)state;
	snprintf(top, sizeof(top), "%s/ff-diff-unit.XXXXXX", tmp);
	return mkdtemp(top) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static int count_entry(void *ctx, const char *name, size_t len, uint64_t h, uint32_t mode,
		       uint64_t cookie)
{
	uint64_t *last = ctx;

	(void)name, (void)len, (void)h, (void)mode;
	*last = cookie;
	return 0;
}

static void dir_fs_answers(void **state)
{
	char d[300], p[400], q[400], target[300], buf[64];
	struct ff_open_opts oo = {.directories = 1};
	struct ff_err err = {0};
	struct ff_fs *fs;
	uint64_t h1, h2, last = 0;
	ssize_t n;

	(void)state;
	path(d, sizeof(d), top, "fs");
	assert_int_equal(mkdir(d, 0755), 0);
	put_file(d, "a", "0123456789");
	path(p, sizeof(p), d, "a");
	path(q, sizeof(q), d, "b");
	assert_int_equal(link(p, q), 0);
	memset(target, 't', 200);
	target[200] = '\0';
	path(p, sizeof(p), d, "long");
	assert_int_equal(symlink(target, p), 0);
	path(p, sizeof(p), d, "a");
	if (setxattr(p, "user.k", "vvv", 3, 0) < 0)
		skip(); /* no user xattrs on this TMPDIR */

	assert_int_equal(ff_dir_fs_open("/nonexistent/dir", &fs, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/dir"));
	assert_int_equal(ff_dir_fs_open(p, &fs, &err), -1); /* a file */
	assert_int_equal(ff_image_open(d, &oo, &fs, &err), 0);
	assert_string_equal(fs->ops->format, "directory");
	assert_int_equal(fs->ops->lookup(fs, fs->ops->root(fs), "..", 2, &h1), -ENOENT);
	assert_int_equal(fs->ops->lookup(fs, fs->ops->root(fs), "a/b", 3, &h1), -ENOENT);
	assert_int_equal(ff_fs_resolve(fs, "/a", &h1), 0);
	assert_int_equal(ff_fs_resolve(fs, "b", &h2), 0);
	assert_int_equal(h1, h2); /* hard links: one handle */
	n = fs->ops->read(fs, h1, buf, sizeof(buf), 4);
	assert_int_equal(n, 6);
	assert_memory_equal(buf, "456789", 6);
	assert_int_equal(fs->ops->getxattr(fs, h1, "user.k", NULL, 0), 3);
	assert_int_equal(fs->ops->getxattr(fs, h1, "user.none", buf, sizeof(buf)), -ENODATA);
	assert_int_equal(ff_fs_resolve(fs, "long", &h2), 0);
	assert_int_equal(fs->ops->readlink(fs, h2, buf, sizeof(buf)), 200);
	assert_int_equal(fs->ops->readdir(fs, fs->ops->root(fs), 0, count_entry, &last), 0);
	assert_int_equal(last, 3);
	last = 0;
	assert_int_equal(fs->ops->readdir(fs, fs->ops->root(fs), 3, count_entry, &last), 0);
	assert_int_equal(last, 0); /* resumed after the last entry: nothing */
	ff_fs_close(fs);
}

struct seen {
	int n;
	char paths[16][64];
	enum ff_diff_kind kinds[16];
	struct ff_diff_change first[16];
	size_t n_changes[16];
	int stop_after;
};

static int record(void *ctx, const struct ff_diff_entry *e)
{
	struct seen *s = ctx;

	if (s->n < 16) {
		snprintf(s->paths[s->n], sizeof(s->paths[0]), "%s", e->path);
		s->kinds[s->n] = e->kind;
		s->n_changes[s->n] = e->n_changes;
		if (e->n_changes)
			s->first[s->n] = e->changes[0];
		s->first[s->n].name = NULL; /* freed after the call */
		s->first[s->n].from.bytes = s->first[s->n].to.bytes = NULL;
	}
	s->n++;
	return s->stop_after && s->n >= s->stop_after;
}

static long run_diff(const char *a, const char *b, unsigned ignore, struct seen *s)
{
	struct ff_fs *fa, *fb;
	struct ff_err err = {0};
	struct ff_diff_opts o = {.ignore = ignore};
	long n;

	assert_int_equal(ff_dir_fs_open(a, &fa, &err), 0);
	assert_int_equal(ff_dir_fs_open(b, &fb, &err), 0);
	n = ff_diff(fa, fb, &o, record, s, &err);
	ff_fs_close(fa);
	ff_fs_close(fb);
	return n;
}

static void make_pair(char *a, char *b, size_t cap)
{
	char p[400];

	path(a, cap, top, "A");
	path(b, cap, top, "B");
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(mkdir(b, 0755), 0);
	put_file(a, "same", "x");
	put_file(b, "same", "x");
	put_file(a, "gone", "g");
	put_file(b, "new", "n");
	put_file(a, "text", "abcdef");
	put_file(b, "text", "abcXef");
	path(p, sizeof(p), a, "text");
	chmod(p, 0644);
	path(p, sizeof(p), b, "text");
	chmod(p, 0600);
	/* the same mtime everywhere but on purpose */
	assert_int_equal(system("find \"$TMPDIR_DIFF\" -exec touch -h -d @1600000000 {} +"), 0);
}

static void diff_records(void **state)
{
	char a[300], b[300];
	struct seen s = {0};

	(void)state;
	setenv("TMPDIR_DIFF", top, 1);
	make_pair(a, b, sizeof(a));
	assert_int_equal(run_diff(a, b, 0, &s), 3);
	/* sorted by name: gone, new, (same), text */
	assert_string_equal(s.paths[0], "/gone");
	assert_int_equal(s.kinds[0], FF_DIFF_REMOVED);
	assert_string_equal(s.paths[1], "/new");
	assert_int_equal(s.kinds[1], FF_DIFF_ADDED);
	assert_string_equal(s.paths[2], "/text");
	assert_int_equal(s.kinds[2], FF_DIFF_CHANGED);
	assert_int_equal(s.n_changes[2], 2);
	assert_int_equal(s.first[2].attr, FF_DIFF_MODE);
	assert_int_equal(s.first[2].from.num, 0644);
	assert_int_equal(s.first[2].to.num, 0600);

	memset(&s, 0, sizeof(s));
	assert_int_equal(run_diff(a, b, 1u << FF_DIFF_MODE, &s), 3);
	assert_int_equal(s.n_changes[2], 1);
	assert_int_equal(s.first[2].attr, FF_DIFF_CONTENTS);
	assert_int_equal(s.first[2].offset, 3);

	memset(&s, 0, sizeof(s));
	s.stop_after = 1;
	assert_int_equal(run_diff(a, b, 0, &s), 1);
	assert_int_equal(run_diff(a, a, 0, &s), 0);
}

static ssize_t read_fails(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	(void)fs, (void)h, (void)buf, (void)len, (void)off;
	return -EIO;
}

/* A tree whose file data cannot be read: -1, the side and path named. */
static void unreadable_tree(void **state)
{
	char a[300];
	struct seen s = {0};
	struct ff_diff_opts o = {.from_name = "old.img", .to_name = "new.img"};
	struct ff_fs_ops bad;
	struct ff_fs *fa, *fb;
	struct ff_err err = {0};

	(void)state;
	path(a, sizeof(a), top, "R");
	assert_int_equal(mkdir(a, 0755), 0);
	put_file(a, "f", "data");
	assert_int_equal(ff_dir_fs_open(a, &fa, &err), 0);
	assert_int_equal(ff_dir_fs_open(a, &fb, &err), 0);
	bad = *fb->ops;
	bad.read = read_fails;
	fb->ops = &bad;
	assert_int_equal(ff_diff(fa, fb, &o, record, &s, &err), -1);
	assert_string_equal(err.msg, "new.img: /f: reading: Input/output error");
	assert_int_equal(s.n, 0);
	ff_fs_close(fa);
	ff_fs_close(fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(dir_fs_answers, setup, teardown),
		cmocka_unit_test_setup_teardown(diff_records, setup, teardown),
		cmocka_unit_test_setup_teardown(unreadable_tree, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
