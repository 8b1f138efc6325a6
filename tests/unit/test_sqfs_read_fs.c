/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The SquashFS reader through common/fs.h on an image made by mksquashfs
 * (skipped when it is not installed): lookups through the directory index,
 * readdir cookies resuming exactly after an entry, reads at odd offsets and
 * lengths, the same file read by several threads at once, read_cached,
 * and the read-ahead across blocks and files. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "squashfs/reader.h"

#define NFILES 3000
#define BIG (700 * 1000 + 123)

struct fixture {
	char dir[64], img[96];
	struct ff_fs *fs;
	uint8_t *big;
};

static uint8_t pattern(size_t i)
{
	return (uint8_t)((i * 7919u) ^ (i >> 9));
}

static int setup(void **state)
{
	static struct fixture f;
	char cmd[512], path[160];
	struct ff_err err = {0};
	FILE *fp;
	size_t i;

	snprintf(f.dir, sizeof(f.dir), "/tmp/sqfs-read-XXXXXX");
	if (!mkdtemp(f.dir))
		return -1;
	snprintf(path, sizeof(path), "%s/src", f.dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/src/many", f.dir);
	mkdir(path, 0755);
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/src/many/name-%05zu", f.dir, i);
		fp = fopen(path, "w");
		if (!fp)
			return -1;
		fprintf(fp, "%zu\n", i);
		fclose(fp);
	}
	f.big = malloc(BIG);
	for (i = 0; i < BIG; i++)
		f.big[i] = pattern(i);
	snprintf(path, sizeof(path), "%s/src/big", f.dir);
	fp = fopen(path, "w");
	fwrite(f.big, 1, BIG, fp);
	fclose(fp);
	snprintf(f.img, sizeof(f.img), "%s/img", f.dir);
	snprintf(cmd, sizeof(cmd), "mksquashfs %s/src %s -quiet -no-progress -comp xz -b 65536 >/dev/null 2>&1",
		 f.dir, f.img);
	if (system(cmd) != 0 || ff_squashfs_open(f.img, NULL, &f.fs, &err) < 0)
		f.fs = NULL;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	ff_fs_close(f->fs);
	free(f->big);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", f->dir);
	return system(cmd) == 0 ? 0 : -1;
}

#define NEED_FS(f) do { if (!(f)->fs) skip(); } while (0)

static void test_lookup_every_name(void **state)
{
	struct fixture *f = *state;
	uint64_t dir, h;
	char name[32], buf[16];
	size_t i;

	NEED_FS(f);
	assert_int_equal(ff_fs_resolve(f->fs, "/many", &dir), 0);
	for (i = 0; i < NFILES; i += 7) {
		int n = snprintf(name, sizeof(name), "name-%05zu", i);
		ssize_t got;

		assert_int_equal(f->fs->ops->lookup(f->fs, dir, name, (size_t)n, &h), 0);
		got = f->fs->ops->read(f->fs, h, buf, sizeof(buf) - 1, 0);
		assert_true(got > 0);
		buf[got] = '\0';
		assert_int_equal(strtoul(buf, NULL, 10), i);
	}
	assert_int_equal(f->fs->ops->lookup(f->fs, dir, "name-", 5, &h), -ENOENT);
	assert_int_equal(f->fs->ops->lookup(f->fs, dir, "name-99999", 10, &h), -ENOENT);
	assert_int_equal(f->fs->ops->lookup(f->fs, dir, "a", 1, &h), -ENOENT);
	assert_int_equal(f->fs->ops->lookup(f->fs, dir, "zzz", 3, &h), -ENOENT);
}

struct rd {
	uint64_t stop_after, n, last_cookie;
	char first[64];
};

static int count_cb(void *ctx, const char *name, size_t len, uint64_t handle, uint32_t mode,
		    uint64_t cookie)
{
	struct rd *r = ctx;

	(void)handle, (void)mode;
	if (r->n == 0)
		snprintf(r->first, sizeof(r->first), "%.*s", (int)len, name);
	r->n++;
	r->last_cookie = cookie;
	return r->stop_after && r->n == r->stop_after;
}

static void test_readdir_cookies_resume(void **state)
{
	struct fixture *f = *state;
	uint64_t dir, cookie = 0, total = 0;
	char want[32];

	NEED_FS(f);
	assert_int_equal(ff_fs_resolve(f->fs, "/many", &dir), 0);
	while (total < NFILES) {
		struct rd r = {257, 0, 0, ""};

		assert_int_equal(f->fs->ops->readdir(f->fs, dir, cookie, count_cb, &r), 0);
		if (r.n == 0)
			break;
		snprintf(want, sizeof(want), "name-%05llu", (unsigned long long)total);
		assert_string_equal(r.first, want);
		total += r.n;
		cookie = r.last_cookie;
	}
	assert_int_equal(total, NFILES);
}

static void test_odd_reads(void **state)
{
	struct fixture *f = *state;
	static const uint64_t offs[] = {0, 1, 65535, 65536, 65537, 131071, BIG - 5000, BIG - 1, BIG};
	uint8_t *buf = malloc(200000);
	uint64_t h;
	size_t i;

	NEED_FS(f);
	assert_int_equal(ff_fs_resolve(f->fs, "big", &h), 0);
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		ssize_t n = f->fs->ops->read(f->fs, h, buf, 200000, offs[i]);
		uint64_t want = BIG - offs[i] < 200000 ? BIG - offs[i] : 200000;

		assert_int_equal(n, want);
		assert_memory_equal(buf, f->big + offs[i], (size_t)n);
	}
	assert_int_equal(f->fs->ops->read(f->fs, h, buf, 10, BIG + 100), 0);
	free(buf);
}

static void *reader(void *arg)
{
	struct fixture *f = arg;
	uint8_t buf[4096];
	uint64_t h, off;

	if (ff_fs_resolve(f->fs, "big", &h) < 0)
		return (void *)1;
	for (off = 0; off < BIG; off += sizeof(buf)) {
		ssize_t n = f->fs->ops->read(f->fs, h, buf, sizeof(buf), off);

		if (n <= 0 || memcmp(buf, f->big + off, (size_t)n))
			return (void *)1;
	}
	return NULL;
}

static void test_parallel_reads(void **state)
{
	struct fixture *f = *state;
	pthread_t t[4];
	void *ret;
	int i;

	NEED_FS(f);
	for (i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reader, f), 0);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &ret);
		assert_null(ret);
	}
}

/* A fresh open of the fixture's image, so its caches start cold. */
static struct ff_fs *open_cold(const struct fixture *f, uint64_t prefetch)
{
	struct ff_open_opts o = { .cache_bytes = 16u << 20,
				 .prefetch_bytes = prefetch};
	struct ff_err err = {0};
	struct ff_fs *fs;

	assert_int_equal(ff_squashfs_open(f->img, &o, &fs, &err), 0);
	return fs;
}

/* read_cached answers only from decoded blocks: EAGAIN on a cold block,
 * the same bytes as read once the block has been decoded. */
static void test_read_cached(void **state)
{
	struct fixture *f = *state;
	uint8_t buf[5000];
	struct ff_fs *fs;
	uint64_t h;

	NEED_FS(f);
	fs = open_cold(f, 0);
	assert_int_equal(ff_fs_resolve(fs, "big", &h), 0);
	assert_int_equal(fs->ops->read_cached(fs, h, buf, sizeof(buf), 70000), -EAGAIN);
	assert_int_equal(fs->ops->read(fs, h, buf, 10, 65536), 10);
	assert_int_equal(fs->ops->read_cached(fs, h, buf, sizeof(buf), 70000), sizeof(buf));
	assert_memory_equal(buf, f->big + 70000, sizeof(buf));
	/* spans into the next block, which is still cold */
	assert_int_equal(fs->ops->read_cached(fs, h, buf, sizeof(buf), 131070), -EAGAIN);
	ff_fs_close(fs);
}

/* Three sequential block reads start the read-ahead: the fourth block
 * gets decoded without anyone reading it.  Waits up to 20 s for that (a
 * bound for a stuck worker, not a speed requirement). */
static void test_prefetch_sequential(void **state)
{
	struct fixture *f = *state;
	uint8_t buf[100];
	struct ff_fs *fs;
	uint64_t h;
	int i;

	NEED_FS(f);
	fs = open_cold(f, 1u << 20);
	assert_int_equal(ff_fs_resolve(fs, "big", &h), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(fs->ops->read(fs, h, buf, 1, (uint64_t)i * 65536), 1);
	for (i = 0; i < 2000 && fs->ops->read_cached(fs, h, buf, sizeof(buf), 3 * 65536 + 7) < 0; i++)
		usleep(10000);
	assert_int_equal(fs->ops->read_cached(fs, h, buf, sizeof(buf), 3 * 65536 + 7), sizeof(buf));
	assert_memory_equal(buf, f->big + 3 * 65536 + 7, sizeof(buf));
	ff_fs_close(fs);
}

/* A whole-tree walk in image order with read-ahead on, in small reads,
 * against the contents written: prefetched blocks are the right ones. */
static void test_prefetch_walk(void **state)
{
	struct fixture *f = *state;
	char name[32], buf[16];
	uint8_t *big = malloc(BIG);
	struct ff_fs *fs;
	uint64_t dir, h, off;
	size_t i;

	NEED_FS(f);
	fs = open_cold(f, 1u << 20);
	assert_int_equal(ff_fs_resolve(fs, "big", &h), 0);
	for (off = 0; off < BIG; off += 4096)
		assert_true(fs->ops->read(fs, h, big + off, 4096, off) > 0);
	assert_memory_equal(big, f->big, BIG);
	assert_int_equal(ff_fs_resolve(fs, "/many", &dir), 0);
	for (i = 0; i < NFILES; i++) {
		int n = snprintf(name, sizeof(name), "name-%05zu", i);
		ssize_t got;

		assert_int_equal(fs->ops->lookup(fs, dir, name, (size_t)n, &h), 0);
		got = fs->ops->read(fs, h, buf, sizeof(buf) - 1, 0);
		assert_true(got > 0);
		buf[got] = '\0';
		assert_int_equal(strtoul(buf, NULL, 10), i);
	}
	ff_fs_close(fs);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_every_name),
		cmocka_unit_test(test_readdir_cookies_resume),
		cmocka_unit_test(test_odd_reads),
		cmocka_unit_test(test_parallel_reads),
		cmocka_unit_test(test_read_cached),
		cmocka_unit_test(test_prefetch_sequential),
		cmocka_unit_test(test_prefetch_walk),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
