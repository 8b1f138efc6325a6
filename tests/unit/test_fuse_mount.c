/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The FUSE callbacks end to end, independent of any image format: a small
 * in-memory ff_fs is served by ff_fuse_mount/ff_fuse_loop from a thread of
 * this process, and checked with ordinary system calls on the mount.
 * Needs root and /dev/fuse; skips otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "fuse/mount.h"
#include "mem_fs.h"
#include "tests/unit/test_noise.h"

/* ---- serving it --------------------------------------------------------- */

struct served {
	struct ff_fs *fs;
	struct ff_mount_opts opts;
	struct ff_fuse_session *session;
	pthread_t thread;
	char dir[64];
	int loop_ret;
};

static void *serve_thread(void *arg)
{
	struct served *s = arg;
	struct ff_err err;

	s->loop_ret = ff_fuse_loop(s->session, &err);
	return NULL;
}

static struct served *serve(const char *options)
{
	struct served *s = calloc(1, sizeof(*s));
	char *argv[] = {"mount", "-o", (char *)options, "memory-image", s->dir, NULL};
	struct ff_err err;

	strcpy(s->dir, "/tmp/ff-fuse-unit.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	assert_int_equal(ff_mount_opts_parse(&s->opts, 5, argv, &err), 0);
	s->fs = mem_open();
	if (ff_fuse_mount(&s->session, s->fs, &s->opts, &err) != 0)
		fail_msg("mount: %s", err.msg);
	assert_int_equal(pthread_create(&s->thread, NULL, serve_thread, s), 0);
	return s;
}

static void unserve(struct served *s)
{
	assert_int_equal(umount2(s->dir, MNT_DETACH), 0);
	pthread_join(s->thread, NULL);
	assert_int_equal(s->loop_ret, 0);
	ff_fuse_unmount(s->session);
	ff_mount_opts_free(&s->opts);
	ff_fs_close(s->fs);
	rmdir(s->dir);
	free(s);
}

static char *at(const struct served *s, const char *rel)
{
	static __thread char path[256];

	snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
	return path;
}

static int group_setup(void **state)
{
	if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK) != 0) {
		print_message("SKIP: needs root and /dev/fuse\n");
		*state = NULL;
		return 0;
	}
	*state = serve("cache=1M");
	return 0;
}

static int group_teardown(void **state)
{
	if (*state)
		unserve(*state);
	return 0;
}

#define NEED_MOUNT(state)          \
	do {                       \
		if (!*(state))     \
			skip();    \
	} while (0)

/* ---- tests -------------------------------------------------------------- */

static void test_attributes(void **state)
{
	struct served *s = *state;
	struct stat st, st2;

	NEED_MOUNT(state);
	assert_int_equal(stat(s->dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_ino, INO(H_ROOT));
	assert_int_equal(lstat(at(s, "a-file"), &st), 0); /* handle 0 */
	assert_int_equal(st.st_ino, INO(H_FILE0));
	assert_int_equal(st.st_mode, S_IFREG | 0640);
	assert_int_equal(st.st_uid, 1000 + H_FILE0);
	assert_int_equal(st.st_gid, 2000 + H_FILE0);
	assert_int_equal(st.st_mtime, 1700000000 + H_FILE0);
	assert_int_equal(st.st_size, sizeof(file0) - 1);
	assert_int_equal(lstat(at(s, "dev"), &st), 0);
	assert_true(S_ISBLK(st.st_mode));
	assert_int_equal(major(st.st_rdev), 8);
	assert_int_equal(minor(st.st_rdev), 33);
	/* two names, one inode */
	assert_int_equal(stat(at(s, "big"), &st), 0);
	assert_int_equal(stat(at(s, "big-hardlink"), &st2), 0);
	assert_int_equal(st.st_ino, st2.st_ino);
	assert_int_equal(st.st_ino, INO(H_BIG));
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(stat(at(s, "no-such-name"), &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(stat(at(s, "a-file/x"), &st), -1);
	assert_int_equal(errno, ENOTDIR);
}

static void test_readdir_large(void **state)
{
	struct served *s = *state;
	static char seen[MANY];
	struct dirent *de;
	DIR *d;
	int n = 0, dots = 0;
	unsigned i;

	NEED_MOUNT(state);
	memset(seen, 0, sizeof(seen));
	d = opendir(at(s, "many"));
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) {
			dots++;
			continue;
		}
		assert_int_equal(sscanf(de->d_name, "m%3u", &i), 1);
		assert_true(i < MANY);
		assert_false(seen[i]);
		seen[i] = 1;
		assert_int_equal(de->d_ino, INO(H_COUNT + i));
		n++;
	}
	closedir(d);
	assert_int_equal(n, MANY);
	assert_int_equal(dots, 2);
}

static void test_readdir_seek(void **state)
{
	struct served *s = *state;
	struct dirent *de;
	char first[300][256];
	long pos;
	DIR *d;
	int n = 0;

	NEED_MOUNT(state);
	d = opendir(at(s, "many"));
	assert_non_null(d);
	for (int i = 0; i < 150; i++) {
		de = readdir(d);
		assert_non_null(de);
	}
	pos = telldir(d);
	while (n < 300 && (de = readdir(d)))
		snprintf(first[n++], sizeof(first[0]), "%s", de->d_name);
	seekdir(d, pos);
	for (int i = 0; i < n; i++) {
		de = readdir(d);
		assert_non_null(de);
		assert_string_equal(de->d_name, first[i]);
	}
	closedir(d);
}

static void check_read(const struct served *s, int fd, size_t len, off_t off)
{
	const unsigned char *big = ((struct mem_fs *)s->fs)->big;
	unsigned char *buf = malloc(len ? len : 1);
	size_t want = off >= (off_t)BIG_SIZE ? 0 :
		      (len < BIG_SIZE - (size_t)off ? len : BIG_SIZE - (size_t)off);

	assert_int_equal(pread(fd, buf, len, off), (ssize_t)want);
	assert_memory_equal(buf, big + (off < (off_t)BIG_SIZE ? off : 0), want);
	free(buf);
}

static void test_read_offsets(void **state)
{
	struct served *s = *state;
	int fd;

	NEED_MOUNT(state);
	fd = open(at(s, "big"), O_RDONLY);
	assert_true(fd >= 0);
	check_read(s, fd, BIG_SIZE, 0);
	check_read(s, fd, 4096, 131072 - 100);
	check_read(s, fd, 1, 1);
	check_read(s, fd, 1 << 20, 777777);
	check_read(s, fd, 5000, BIG_SIZE - 10);
	check_read(s, fd, 100, BIG_SIZE + 10);
	close(fd);
	fd = open(at(s, "a-file"), O_RDONLY | O_DIRECT);
	if (fd >= 0) {
		char buf[64] = {0};

		assert_int_equal(read(fd, buf, sizeof(buf)), sizeof(file0) - 1);
		assert_string_equal(buf, file0);
		close(fd);
	}
}

static void *reader_thread(void *arg)
{
	const struct served *s = arg;
	const unsigned char *big = ((struct mem_fs *)s->fs)->big;
	unsigned char buf[8192];
	uint32_t x = (uint32_t)(uintptr_t)&buf;
	int fd = open(at(s, "big-hardlink"), O_RDONLY | O_DIRECT);
	intptr_t bad = 0;

	if (fd < 0)
		fd = open(at(s, "big-hardlink"), O_RDONLY);
	for (int i = 0; i < 300 && fd >= 0; i++) {
		off_t off;

		x = test_noise_next(x);
		off = (off_t)(x % (BIG_SIZE / 4096)) * 4096;
		if (pread(fd, buf, 4096, off) != 4096 || memcmp(buf, big + off, 4096))
			bad++;
	}
	if (fd < 0)
		bad = -1;
	else
		close(fd);
	return (void *)bad;
}

static void test_concurrent_reads(void **state)
{
	struct served *s = *state;
	pthread_t t[8];
	void *bad;

	NEED_MOUNT(state);
	for (int i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reader_thread, s), 0);
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], &bad);
		assert_int_equal((intptr_t)bad, 0);
	}
}

static void test_symlink_xattr_statfs(void **state)
{
	struct served *s = *state;
	char buf[64];
	struct statvfs sv;
	ssize_t n;

	NEED_MOUNT(state);
	n = readlink(at(s, "link"), buf, sizeof(buf));
	assert_int_equal(n, 3);
	assert_memory_equal(buf, "big", 3);
	n = listxattr(at(s, "a-file"), NULL, 0);
	assert_int_equal(n, sizeof("user.comment") + sizeof("trusted.x"));
	assert_int_equal(listxattr(at(s, "a-file"), buf, 5), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(listxattr(at(s, "a-file"), buf, sizeof(buf)), n);
	assert_memory_equal(buf, "user.comment\0trusted.x\0", (size_t)n);
	assert_int_equal(getxattr(at(s, "a-file"), "user.comment", NULL, 0), 11);
	assert_int_equal(getxattr(at(s, "a-file"), "user.comment", buf, 3), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(getxattr(at(s, "a-file"), "user.comment", buf, sizeof(buf)), 11);
	assert_memory_equal(buf, "hello xattr", 11);
	assert_int_equal(getxattr(at(s, "a-file"), "user.none", buf, sizeof(buf)), -1);
	assert_int_equal(errno, ENODATA);
	assert_int_equal(statvfs(s->dir, &sv), 0);
	assert_int_equal(sv.f_bsize, 131072);
	assert_int_equal(sv.f_blocks, 11);
	assert_int_equal(sv.f_files, H_COUNT + MANY);
	assert_int_equal(sv.f_namemax, 256);
	assert_true(sv.f_flag & ST_RDONLY);
}

static void expect_erofs(int ret)
{
	assert_int_equal(ret, -1);
	assert_int_equal(errno, EROFS);
}

static void test_writes_refused(void **state)
{
	struct served *s = *state;

	NEED_MOUNT(state);
	expect_erofs(open(at(s, "a-file"), O_WRONLY));
	expect_erofs(open(at(s, "new"), O_CREAT | O_WRONLY, 0644));
	expect_erofs(mkdir(at(s, "newdir"), 0755));
	expect_erofs(unlink(at(s, "a-file")));
	expect_erofs(rmdir(at(s, "sub")));
	expect_erofs(rename(at(s, "a-file"), at(s, "b")));
	expect_erofs(symlink("x", at(s, "sl")));
	expect_erofs(chmod(at(s, "a-file"), 0600));
	expect_erofs(truncate(at(s, "a-file"), 0));
	expect_erofs(setxattr(at(s, "a-file"), "user.x", "1", 1, 0));
	expect_erofs(removexattr(at(s, "a-file"), "user.comment"));
}

static void test_damage_gives_eio(void **state)
{
	struct served *s = *state;
	char buf[16];
	struct stat st;
	int fd, before = atomic_load(&((struct mem_fs *)s->fs)->logs);

	NEED_MOUNT(state);
	fd = open(at(s, "bad"), O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EIO);
	close(fd);
	assert_true(atomic_load(&((struct mem_fs *)s->fs)->logs) > before);
	assert_int_equal(stat(at(s, "a-file"), &st), 0); /* still serving */
}

static void test_subdir_and_owner(void **state)
{
	struct served *s;
	struct stat st;
	char buf[64] = {0};
	int fd;

	NEED_MOUNT(state);
	s = serve("subdir=/sub,uid=4242,gid=77,threads=1");
	assert_int_equal(stat(s->dir, &st), 0);
	assert_int_equal(st.st_ino, INO(H_SUB));
	assert_int_equal(st.st_mode, S_IFDIR | 0700);
	assert_int_equal(st.st_uid, 4242);
	assert_int_equal(st.st_gid, 77);
	fd = open(at(s, "inner"), O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf)), sizeof(file0) - 1);
	close(fd);
	assert_int_equal(stat(at(s, "big"), &st), -1);
	unserve(s);
}

static void test_subdir_not_a_dir(void **state)
{
	char *argv[] = {"mount", "-o", "subdir=a-file", "img", "/tmp", NULL};
	struct ff_mount_opts o;
	struct ff_fuse_session *sess;
	struct ff_err err;
	struct ff_fs *fs = mem_open();

	(void)state;
	assert_int_equal(ff_mount_opts_parse(&o, 5, argv, &err), 0);
	assert_int_equal(ff_fuse_mount(&sess, fs, &o, &err), -1);
	assert_non_null(strstr(err.msg, "not a directory"));
	ff_mount_opts_free(&o);
	ff_fs_close(fs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_readdir_large),
		cmocka_unit_test(test_readdir_seek),
		cmocka_unit_test(test_read_offsets),
		cmocka_unit_test(test_concurrent_reads),
		cmocka_unit_test(test_symlink_xattr_statfs),
		cmocka_unit_test(test_writes_refused),
		cmocka_unit_test(test_damage_gives_eio),
		cmocka_unit_test(test_subdir_and_owner),
		cmocka_unit_test(test_subdir_not_a_dir),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
