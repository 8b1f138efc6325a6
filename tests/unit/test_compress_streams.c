/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Stream containers: every container round-trips through a file in small
 * and large writes; detection by magic; truncated and corrupted files give
 * errors; a file that is not compressed is handed back unread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "compress/compress.h"
#include "tests/unit/test_noise.h"

#define BIG (3u << 20)

static const char *const containers[] = { "gzip", "lzop", "xz", "zstd" };

static uint8_t *sample(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);
	uint32_t s = 1;

	/* Half text-like, half noise, so blocks both shrink and do not. */
	for (size_t i = 0; i < n; i++) {
		s = test_noise_next(s);
		p[i] = (i / 100000) % 2 ? (uint8_t)(s >> 16) : (uint8_t)("flash page "[i % 11]);
	}
	return p;
}

static int temp_fd(void)
{
	char path[] = "/tmp/ff-cstream-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

static void write_all(int fd, const char *name, int level, const uint8_t *p, size_t n,
		      size_t chunk)
{
	struct ff_err err = { 0 };
	struct ff_cstream *w = ff_cstream_new_writer(fd, name, level, &err);

	if (!w)
		fail_msg("%s: %s", name, err.msg);
	for (size_t off = 0; off < n; off += chunk) {
		size_t len = n - off < chunk ? n - off : chunk;

		assert_int_equal(ff_cstream_write(w, p + off, len, &err), (ssize_t)len);
	}
	if (ff_cstream_close(w, &err))
		fail_msg("%s close: %s", name, err.msg);
}

/* Read the whole stream; returns its length or -1 (err filled). */
static ssize_t read_all(int fd, uint8_t *out, size_t cap, size_t chunk, const char **kind,
			struct ff_err *err)
{
	struct ff_cstream *r;
	size_t total = 0;
	ssize_t got;

	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	r = ff_cstream_new_reader(fd, err);
	if (!r)
		return -1;
	do {
		got = ff_cstream_read(r, out + total, cap - total < chunk ? cap - total : chunk, err);
		if (got > 0)
			total += (size_t)got;
	} while (got > 0 && total < cap);
	ff_cstream_close(r, NULL);
	(void)kind;
	return got < 0 ? -1 : (ssize_t)total;
}

static void test_round_trips(void **state)
{
	static const size_t sizes[] = { 0, 1, 4097, BIG };
	uint8_t *in = sample(BIG), *out = malloc(BIG + 1);

	(void)state;
	for (size_t c = 0; c < 4; c++) {
		for (size_t s = 0; s < 4; s++) {
			struct ff_err err = { 0 };
			int fd = temp_fd();
			ssize_t got;

			write_all(fd, containers[c], s == 3 ? -1 : 1 + (int)s * 4, in, sizes[s],
				  s == 2 ? 7 : 1u << 20);
			got = read_all(fd, out, BIG + 1, s == 2 ? 3 : 65536, NULL, &err);
			if (got < 0)
				fail_msg("%s size %zu: %s", containers[c], sizes[s], err.msg);
			assert_int_equal(got, sizes[s]);
			assert_memory_equal(out, in, sizes[s]);
			close(fd);
		}
	}
	free(in);
	free(out);
}

static void test_detect(void **state)
{
	static const uint8_t gz[] = { 0x1f, 0x8b, 8 }, xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 },
			     zs[] = { 0x28, 0xb5, 0x2f, 0xfd },
			     lzo[] = { 0x89, 'L', 'Z', 'O', 0, 0x0d, 0x0a, 0x1a, 0x0a },
			     sq[] = { 'h', 's', 'q', 's' };

	(void)state;
	assert_string_equal(ff_cstream_detect(gz, sizeof(gz)), "gzip");
	assert_string_equal(ff_cstream_detect(xz, sizeof(xz)), "xz");
	assert_string_equal(ff_cstream_detect(zs, sizeof(zs)), "zstd");
	assert_string_equal(ff_cstream_detect(lzo, sizeof(lzo)), "lzop");
	assert_null(ff_cstream_detect(sq, sizeof(sq)));
	assert_null(ff_cstream_detect(lzo, 5));
}

static void test_not_compressed(void **state)
{
	struct ff_err err = { 0 };
	int fd = temp_fd();
	char buf[8] = "";

	(void)state;
	assert_int_equal(write(fd, "hsqs plain image", 16), 16);
	assert_int_equal(lseek(fd, 4, SEEK_SET), 4);
	assert_null(ff_cstream_new_reader(fd, &err));
	assert_int_equal(err.code, 0);
	/* The caller reads on from where it was. */
	assert_int_equal(read(fd, buf, 6), 6);
	assert_memory_equal(buf, " plain", 6);
	close(fd);
}

/* Damage the file written for a container, then reading must fail with a
 * message naming the container. */
static void expect_damage_fails(const char *name, const uint8_t *in, size_t n,
				void (*damage)(int fd, off_t size))
{
	struct ff_err err = { 0 };
	uint8_t *out = malloc(n + 1);
	int fd = temp_fd();
	off_t size;

	write_all(fd, name, -1, in, n, n);
	size = lseek(fd, 0, SEEK_END);
	damage(fd, size);
	if (read_all(fd, out, n + 1, 65536, NULL, &err) >= 0)
		fail_msg("%s: damaged stream read without error", name);
	assert_true(strlen(err.msg) > 0);
	if (!strstr(err.msg, name))
		fail_msg("%s: message '%s' does not name the container", name, err.msg);
	free(out);
	close(fd);
}

static void cut_tail(int fd, off_t size)
{
	assert_int_equal(ftruncate(fd, size - 5), 0);
}

static void cut_half(int fd, off_t size)
{
	assert_int_equal(ftruncate(fd, size / 2), 0);
}

static void flip_middle(int fd, off_t size)
{
	uint8_t b;

	assert_int_equal(pread(fd, &b, 1, size / 2), 1);
	b ^= 0x10;
	assert_int_equal(pwrite(fd, &b, 1, size / 2), 1);
}

static void test_damage(void **state)
{
	uint8_t *in = sample(300000);

	(void)state;
	for (size_t c = 0; c < 4; c++) {
		expect_damage_fails(containers[c], in, 300000, cut_tail);
		expect_damage_fails(containers[c], in, 300000, cut_half);
		/* Every container carries a checksum of the data (zstd: we
		 * write the content checksum), so a flipped bit is caught. */
		expect_damage_fails(containers[c], in, 300000, flip_middle);
	}
	free(in);
}

static void test_bad_names(void **state)
{
	struct ff_err err = { 0 };

	(void)state;
	assert_null(ff_cstream_new_writer(1, "brotli", -1, &err));
	assert_non_null(strstr(err.msg, "brotli"));
	assert_null(ff_cstream_new_writer(1, "lz4", -1, &err));
	assert_non_null(strstr(err.msg, "lz4"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_not_compressed),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_bad_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
