/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs's public API (the headers in include/flashfs/), used only through the
 * installed headers as a program would: every codec round-trips a block;
 * a tree filled entry by entry comes back through ff_reader from both a
 * SquashFS and a YAFFS2 image (contents, symlink, hard link, device, xattr);
 * one reader serves several threads at once; failures return -1 with a
 * code and a message naming the thing.  The images themselves are held to
 * the kernel by tests/integration/libflashfs.t and the writers' own tests. */
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

#include <flashfs/flashfs.h>

#define BIG (300 * 1024 + 17)

static uint8_t pattern(size_t i)
{
	return (uint8_t)((i * 7) ^ (i >> 9));
}

static void test_codecs(void **state)
{
	static uint8_t in[65536], out[65536], back[65536];
	struct ff_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i % 251 < 100 ? 'a' : i % 13);
	for (const char *const *name = ff_compressor_names(); *name; name++) {
		struct ff_compressor *c;
		ssize_t n, m;

		assert_int_equal(ff_compressor_create(*name, sizeof(in), NULL, &c, &err), 0);
		assert_string_equal(ff_compressor_name(c), *name);
		n = ff_compressor_compress(c, in, sizeof(in), out, sizeof(out), &err);
		assert_true(n > 0 && n < (ssize_t)sizeof(in));
		m = ff_compressor_decompress(c, out, (size_t)n, back, sizeof(back), &err);
		assert_int_equal(m, sizeof(in));
		assert_memory_equal(in, back, sizeof(in));
		assert_int_equal(ff_compressor_decompress(c, in, 100, back, sizeof(back), &err), -1);
		assert_true(err.code != 0 && err.message[0]);
		ff_compressor_destroy(c);
	}
}

static void test_codec_errors(void **state)
{
	struct ff_compressor *c = (void *)1;
	struct ff_error err;

	(void)state;
	assert_int_equal(ff_compressor_create("nope", 131072, NULL, &c, &err), -1);
	assert_null(c);
	assert_int_equal(err.code, EINVAL);
	assert_non_null(strstr(err.message, "nope"));
	assert_int_equal(ff_compressor_create("zstd", 131072, "level=99", &c, &err), -1);
	assert_non_null(strstr(err.message, "level"));
	assert_int_equal(ff_compressor_create("zstd", 131072, "level=3", &c, NULL), 0);
	ff_compressor_destroy(c);
	ff_compressor_destroy(NULL);
}

static struct ff_fstree *fill_tree(void)
{
	struct ff_meta dir = { 0750, 1, 2, 1600000000 }, file = { 0640, 1000, 100, 1600000001 };
	struct ff_meta chr = { S_IFCHR | 0600, 0, 0, 1600000002 };
	static uint8_t big[BIG];
	struct ff_fstree *t;
	struct ff_error err;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = pattern(i);
	assert_int_equal(ff_fstree_create(NULL, &t, &err), 0);
	assert_int_equal(ff_fstree_add_dir(t, "/", &dir, &err), 0);
	assert_int_equal(ff_fstree_add_file(t, "a/b/big", &file, big, sizeof(big), &err), 0);
	assert_int_equal(ff_fstree_add_file(t, "./a/small", &file, "tiny", 4, &err), 0);
	assert_int_equal(ff_fstree_set_xattr(t, "a/small", "user.k", "v1", 2, &err), 0);
	assert_int_equal(ff_fstree_add_hardlink(t, "a/small2", "a/small", &err), 0);
	assert_int_equal(ff_fstree_add_symlink(t, "a/link", NULL, "b/big", &err), 0);
	assert_int_equal(ff_fstree_add_device(t, "dev/c", &chr, 10, 200, &err), 0);
	assert_int_equal(ff_fstree_add_file_from(t, "etc/self", NULL, "/proc/self/cmdline", &err),
			 0);
	return t;
}

static int count_entry(void *ctx, const char *name, uint64_t node, uint32_t mode)
{
	(void)node;
	(void)mode;
	if (!strcmp(name, "a") || !strcmp(name, "dev") || !strcmp(name, "etc"))
		++*(int *)ctx;
	return 0;
}

static int name_seen(void *ctx, const char *name)
{
	return !strcmp(name, (const char *)ctx);
}

static void check_image(struct ff_reader *r, const char *format)
{
	uint64_t node, other;
	struct ff_attr a;
	struct ff_error err;
	static uint8_t buf[BIG + 10];
	char target[64];
	int seen = 0;

	assert_string_equal(ff_reader_format(r), format);
	assert_int_equal(ff_reader_readdir(r, ff_reader_root(r), count_entry, &seen, &err), 0);
	assert_int_equal(seen, 3);
	assert_int_equal(ff_reader_resolve(r, "/a/b/big", &node, &err), 0);
	assert_int_equal(ff_reader_stat(r, node, &a, &err), 0);
	assert_int_equal(a.size, BIG);
	assert_int_equal(a.mode, S_IFREG | 0640);
	assert_int_equal(a.uid, 1000);
	assert_int_equal(a.mtime, 1600000001);
	assert_int_equal(ff_reader_read(r, node, buf, sizeof(buf), 0, &err), BIG);
	for (size_t i = 0; i < BIG; i++)
		if (buf[i] != pattern(i))
			fail_msg("byte %zu differs", i);
	assert_int_equal(ff_reader_read(r, node, buf, 10, BIG - 4, &err), 4);
	assert_int_equal(ff_reader_resolve(r, "a/link", &other, &err), 0);
	assert_int_equal(ff_reader_readlink(r, other, target, sizeof(target), &err), 5);
	assert_string_equal(target, "b/big");
	assert_int_equal(ff_reader_readlink(r, node, target, sizeof(target), &err), -1);
	assert_int_equal(err.code, EINVAL);
	assert_int_equal(ff_reader_resolve(r, "a/small", &node, &err), 0);
	assert_int_equal(ff_reader_lookup(r, ff_reader_root(r), "a", &other, &err), 0);
	assert_int_equal(ff_reader_lookup(r, other, "small2", &other, &err), 0);
	assert_true(node == other);
	assert_int_equal(ff_reader_getxattr(r, node, "user.k", target, sizeof(target), &err), 2);
	assert_memory_equal(target, "v1", 2);
	assert_int_equal(ff_reader_getxattr(r, node, "user.none", target, 64, &err), -1);
	assert_int_equal(err.code, ENODATA);
	assert_int_equal(ff_reader_listxattr(r, node, name_seen, "user.k", &err), 1);
	assert_int_equal(ff_reader_resolve(r, "dev/c", &node, &err), 0);
	assert_int_equal(ff_reader_stat(r, node, &a, &err), 0);
	assert_true(S_ISCHR(a.mode) && a.rdev_major == 10 && a.rdev_minor == 200);
	assert_int_equal(ff_reader_resolve(r, "a/missing", &node, &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_non_null(strstr(err.message, "a/missing"));
}

struct job {
	struct ff_reader *r;
	uint64_t node;
	int bad;
};

static void *reader_thread(void *arg)
{
	struct job *j = arg;
	struct ff_error err;
	uint8_t buf[5000];

	for (uint64_t off = 0; off < BIG; off += sizeof(buf) * 3) {
		ssize_t n = ff_reader_read(j->r, j->node, buf, sizeof(buf), off, &err);

		for (ssize_t i = 0; i < n; i++)
			j->bad += buf[i] != pattern(off + (size_t)i);
		j->bad += n <= 0;
	}
	return NULL;
}

static void check_threads(struct ff_reader *r)
{
	struct job jobs[4];
	pthread_t th[4];
	uint64_t node;

	assert_int_equal(ff_reader_resolve(r, "a/b/big", &node, NULL), 0);
	for (int i = 0; i < 4; i++) {
		jobs[i] = (struct job){ r, node, 0 };
		assert_int_equal(pthread_create(&th[i], NULL, reader_thread, &jobs[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		assert_int_equal(jobs[i].bad, 0);
	}
}

/* The options carry their size: a shorter (older) struct gets the
 * defaults beyond it, a struct without its size set is refused, and the
 * flash geometry reaches the reader. */
static void check_options(const char *y2)
{
	struct ff_reader_options o;
	struct ff_reader *r;
	struct ff_error err;

	ff_reader_options_init(&o, sizeof(o));
	assert_int_equal(o.size, sizeof(o));
	o.flash.page_size = 2048;
	o.flash.oob_size = 64;
	o.flash.oob_layout = "linux";
	assert_int_equal(ff_reader_open(y2, &o, &r, &err), 0);
	check_image(r, "yaffs2");
	ff_reader_close(r);
	o.flash.oob_layout = "inband"; /* a wrong layout given is obeyed: no image */
	assert_int_equal(ff_reader_open(y2, &o, &r, &err), -1);
	/* a struct that ends before volume and flash (0.2's, plus size) */
	ff_reader_options_init(&o, sizeof(o));
	o.size = offsetof(struct ff_reader_options, volume);
	o.flash.oob_layout = "inband"; /* beyond its size: not read */
	assert_int_equal(ff_reader_open(y2, &o, &r, &err), 0);
	ff_reader_close(r);
	o.size = 0;
	assert_int_equal(ff_reader_open(y2, &o, &r, &err), -1);
	assert_int_equal(err.code, EINVAL);
	assert_non_null(strstr(err.message, "ff_reader_options_init"));
}

static void test_build_and_read(void **state)
{
	char dir[] = "/tmp/ff-api.XXXXXX", sq[64], y2[64];
	struct ff_squashfs_options so;
	struct ff_error err;
	struct ff_reader *r;
	struct ff_fstree *t = fill_tree();

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sq, sizeof(sq), "%s/img.sqfs", dir);
	snprintf(y2, sizeof(y2), "%s/img.yaffs2", dir);
	ff_squashfs_options_init(&so);
	so.codec = "lz4";
	so.block_size = 65536;
	assert_int_equal(ff_squashfs_write(t, sq, &so, &err), 0);
	assert_int_equal(ff_yaffs2_write(t, y2, NULL, &err), 0);
	assert_int_equal(ff_fstree_add_dir(t, "late", NULL, &err), -1);
	assert_non_null(strstr(err.message, "finished"));
	ff_fstree_destroy(t);
	assert_int_equal(ff_reader_open(sq, NULL, &r, &err), 0);
	check_image(r, "squashfs");
	check_threads(r);
	ff_reader_close(r);
	assert_int_equal(ff_reader_open(y2, NULL, &r, &err), 0);
	check_image(r, "yaffs2");
	ff_reader_close(r);
	check_options(y2);
	unlink(sq);
	unlink(y2);
	rmdir(dir);
}

static void test_errors(void **state)
{
	struct ff_fstree *t;
	struct ff_reader *r = (void *)1;
	struct ff_error err;
	struct ff_squashfs_options so;

	(void)state;
	assert_int_equal(ff_reader_open("/nonexistent/img", NULL, &r, &err), -1);
	assert_null(r);
	assert_int_equal(err.code, ENOENT);
	assert_non_null(strstr(err.message, "/nonexistent/img"));
	assert_int_equal(ff_fstree_create(NULL, &t, &err), 0);
	assert_int_equal(ff_fstree_add_file(t, "a/../b", NULL, "", 0, &err), -1);
	assert_non_null(strstr(err.message, "a/../b"));
	assert_int_equal(ff_fstree_add_hardlink(t, "x", "nothing", &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(ff_fstree_add_file_from(t, "y", NULL, "/nonexistent", &err), -1);
	assert_int_equal(err.code, ENOENT);
	assert_int_equal(ff_fstree_add_device(t, "z", NULL, 1, 2, &err), -1);
	assert_int_equal(err.code, EINVAL);
	ff_squashfs_options_init(&so);
	so.block_size = 3000;
	assert_int_equal(ff_squashfs_write(t, "/tmp/ff-api-never.sqfs", &so, &err), -1);
	assert_non_null(strstr(err.message, "3000"));
	assert_int_equal(access("/tmp/ff-api-never.sqfs", F_OK), -1);
	ff_fstree_destroy(t);
	assert_string_equal(ff_version(), FF_VERSION_STRING);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codecs),
		cmocka_unit_test(test_codec_errors),
		cmocka_unit_test(test_build_and_read),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
