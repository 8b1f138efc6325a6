/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Which files push= stores ahead of a walk (fuse/push.c): the next files
 * of the listing of the one read, at most the window, each once, never
 * past its directory, never large or empty ones or directories. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "fuse/push.h"

#define DIR_A 1000
#define DIR_B 2000

/* Directory A: files 1..10 of 100 bytes, then directory B: files 11..14. */
static struct ff_push *listed(unsigned window)
{
	struct ff_push *p = ff_push_new(window, 4096);
	uint64_t h;

	assert_non_null(p);
	for (h = 1; h <= 10; h++)
		ff_push_listed(p, DIR_A, h, S_IFREG | 0644, 100);
	for (h = 11; h <= 14; h++)
		ff_push_listed(p, DIR_B, h, S_IFREG | 0644, 100);
	return p;
}

static void test_window_then_next_window(void **state)
{
	struct ff_push *p = listed(3);
	struct ff_push_file out[8];

	(void)state;
	assert_int_equal(ff_push_after(p, 1, out, 8), 3);
	assert_int_equal(out[0].handle, 2);
	assert_int_equal(out[2].handle, 4);
	assert_int_equal(out[0].size, 100);
	/* the walker reads 5 next (2..4 came from the page cache) */
	assert_int_equal(ff_push_after(p, 5, out, 8), 3);
	assert_int_equal(out[0].handle, 6);
	ff_push_free(p);
}

static void test_each_file_once_and_not_past_the_directory(void **state)
{
	struct ff_push *p = listed(8);
	struct ff_push_file out[8];

	(void)state;
	assert_int_equal(ff_push_after(p, 7, out, 8), 3); /* 8, 9, 10: not 11 */
	assert_int_equal(out[2].handle, 10);
	assert_int_equal(ff_push_after(p, 6, out, 8), 0); /* 7 read, 8..10 pushed */
	assert_int_equal(ff_push_after(p, 1, out, 8), 4); /* 2..5 */
	assert_int_equal(out[3].handle, 5);
	assert_int_equal(ff_push_after(p, 12, out, 8), 2); /* 13, 14 */
	assert_int_equal(ff_push_after(p, 99, out, 8), 0); /* never listed */
	ff_push_free(p);
}

static void test_room_limits(void **state)
{
	struct ff_push *p = listed(8);
	struct ff_push_file out[2];

	(void)state;
	assert_int_equal(ff_push_after(p, 1, out, 2), 2);
	assert_int_equal(out[1].handle, 3);
	ff_push_free(p);
}

static void test_only_small_regular_files(void **state)
{
	struct ff_push *p = ff_push_new(8, 4096);
	struct ff_push_file out[8];

	(void)state;
	ff_push_listed(p, DIR_A, 1, S_IFREG | 0644, 10);
	ff_push_listed(p, DIR_A, 2, S_IFDIR | 0755, 10);
	ff_push_listed(p, DIR_A, 3, S_IFREG | 0644, 0);
	ff_push_listed(p, DIR_A, 4, S_IFREG | 0644, 4097);
	ff_push_listed(p, DIR_A, 5, S_IFLNK | 0777, 10);
	ff_push_listed(p, DIR_A, 6, S_IFREG | 0644, 4096);
	ff_push_listed(p, DIR_A, 6, S_IFREG | 0644, 4096); /* listed again */
	assert_int_equal(ff_push_after(p, 1, out, 8), 1);
	assert_int_equal(out[0].handle, 6);
	ff_push_free(p);
}

/* A listing's head is handed out once a READ shows the walker reads, once
 * per listing, only for the latest listing, and never to a walk that has
 * listed 16 directories in a row without reading. */
static void test_head_of_listing(void **state)
{
	struct ff_push *p = listed(3);
	struct ff_push_file out[8];
	uint64_t d, h = 100;

	(void)state;
	assert_int_equal(ff_push_head(p, DIR_B, out, 8), 0); /* nothing read yet */
	assert_int_equal(ff_push_after(p, 99, out, 8), 0);   /* a READ: a reader */
	assert_int_equal(ff_push_head(p, DIR_A, out, 8), 0); /* not the latest */
	assert_int_equal(ff_push_head(p, DIR_B, out, 8), 3);
	assert_int_equal(out[0].handle, 11);
	assert_int_equal(out[2].handle, 13);
	assert_int_equal(ff_push_head(p, DIR_B, out, 8), 0); /* once */
	assert_int_equal(ff_push_wanted(p, 11), 1);
	assert_int_equal(ff_push_after(p, 11, out, 8), 1);   /* only 14 is left */
	assert_int_equal(out[0].handle, 14);
	assert_int_equal(ff_push_wanted(p, 11), 0); /* read: its store is skipped */
	assert_int_equal(ff_push_wanted(p, 12), 1);
	assert_int_equal(ff_push_wanted(p, 999), 1); /* not listed: stored */
	/* 15 listings without a READ still push; the 16th does not */
	for (d = 1; d <= 16; d++) {
		ff_push_listed(p, 5000 + d, h, S_IFREG | 0644, 100);
		ff_push_listed(p, 5000 + d, h + 1, S_IFREG | 0644, 100);
		out[0].handle = 0;
		assert_int_equal(ff_push_head(p, 5000 + d, out, 8), d < 16 ? 2 : 0);
		assert_int_equal(out[0].handle, d < 16 ? h : 0);
		h += 2;
	}
	ff_push_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_then_next_window),
		cmocka_unit_test(test_each_file_once_and_not_past_the_directory),
		cmocka_unit_test(test_room_limits),
		cmocka_unit_test(test_only_small_regular_files),
		cmocka_unit_test(test_head_of_listing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
