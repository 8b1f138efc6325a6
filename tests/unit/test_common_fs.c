/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/fs.c: ff_read_span, the one clamp of a read to a file's size
 * that eight readers had written each for themselves, and the no-xattr
 * operations two readers share. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cmocka.h>

#include "common/fs.h"

static void span_inside_and_at_the_end(void **state)
{
	(void)state;
	assert_int_equal(ff_read_span(10, 0, 4), 4);
	assert_int_equal(ff_read_span(10, 4, 100), 6);
	assert_int_equal(ff_read_span(10, 9, 1), 1);
	assert_int_equal(ff_read_span(10, 0, 0), 0);
}

static void span_past_the_end(void **state)
{
	(void)state;
	assert_int_equal(ff_read_span(10, 10, 4), 0);
	assert_int_equal(ff_read_span(10, 11, 4), 0);
	assert_int_equal(ff_read_span(0, 0, 4), 0);
	assert_int_equal(ff_read_span(10, UINT64_MAX, SIZE_MAX), 0);
}

/* A read returns ssize_t: a huge file and a huge buffer give SSIZE_MAX. */
static void span_fits_ssize(void **state)
{
	(void)state;
	assert_true(ff_read_span(UINT64_MAX, 0, SIZE_MAX) == (size_t)SSIZE_MAX);
	assert_true(ff_read_span(UINT64_MAX, 1, (size_t)SSIZE_MAX + 2) == (size_t)SSIZE_MAX);
}

static void no_xattrs(void **state)
{
	char buf[4];

	(void)state;
	assert_int_equal(ff_fs_no_listxattr(NULL, 1, NULL, NULL), 0);
	assert_int_equal(ff_fs_no_getxattr(NULL, 1, "user.a", buf, sizeof(buf)), -ENODATA);
	assert_int_equal(ff_fs_no_getxattr(NULL, 1, "user.a", NULL, 0), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(span_inside_and_at_the_end),
		cmocka_unit_test(span_past_the_end),
		cmocka_unit_test(span_fits_ssize),
		cmocka_unit_test(no_xattrs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
