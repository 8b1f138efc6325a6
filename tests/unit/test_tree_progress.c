/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/progress: the formatted line, silence on a non-terminal, the
 * forced final line, and counts added from several threads at once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/progress.h"

static void test_format(void **state)
{
	struct ff_progress_state s = {
		.done_bytes = 12300000, .total_bytes = 40100000,
		.done_items = 123, .total_items = 456,
		.elapsed_ns = 3000000000ull, .unit = "files",
	};
	char buf[200];

	(void)state;
	ff_progress_format(buf, sizeof(buf), &s);
	/* 12.3 of 40.1 MB in 3 s: 30.6%, 4.1 MB/s, 69.4% left = 6.8 s */
	assert_string_equal(buf, "[######              ]  30%  123/456 files  12.3/40.1 MB  "
				 "4.1 MB/s  ETA 0:07");
	/* the first moments give no ETA (a first frame once said 83:22:53) */
	s.elapsed_ns = 100000000ull;
	s.done_bytes = 1000;
	ff_progress_format(buf, sizeof(buf), &s);
	assert_non_null(strstr(buf, "ETA --:--"));
	s.elapsed_ns = 3000000000ull;
	ff_progress_format(buf, sizeof(buf), &s);
	assert_non_null(strstr(buf, "ETA --:--"));
	s.done_bytes = 12300000;
	s.final = 1;
	s.done_bytes = s.total_bytes;
	s.elapsed_ns = 3725ull * 1000000000ull;
	ff_progress_format(buf, sizeof(buf), &s);
	assert_non_null(strstr(buf, "[####################] 100%"));
	assert_non_null(strstr(buf, "in 1:02:05"));
	/* unknown byte total: the percentage follows the items */
	memset(&s, 0, sizeof(s));
	s.done_items = 1;
	s.total_items = 4;
	ff_progress_format(buf, sizeof(buf), &s);
	/* and no bytes at all (items only): no "0.0 MB  0.0 MB/s" */
	assert_non_null(strstr(buf, " 25%  1/4 items  ETA"));
	assert_null(strstr(buf, "MB"));
	assert_non_null(strstr(buf, "ETA --:--"));
	s.done_bytes = 1500000;
	ff_progress_format(buf, sizeof(buf), &s);
	assert_non_null(strstr(buf, " 25%  1/4 items  1.5 MB  "));
	/* truncation never overruns */
	assert_int_equal(ff_progress_format(buf, 10, &s), 9);
	assert_int_equal(strlen(buf), 9);
}

static void *worker(void *arg)
{
	for (int i = 0; i < 10000; i++)
		ff_progress_add(arg, 3, 1);
	return NULL;
}

static void run(int force, char *out, size_t cap)
{
	struct ff_progress *p;
	pthread_t th[4];
	int fds[2];
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	p = ff_progress_new(fds[1], "files", force);
	assert_non_null(p);
	ff_progress_set_total(p, 120000, 40000);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, p), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	ff_progress_finish(p);
	ff_progress_free(p);
	close(fds[1]);
	n = read(fds[0], out, cap - 1);
	out[n < 0 ? 0 : n] = '\0';
	close(fds[0]);
}

static void test_threads_and_output(void **state)
{
	char out[65536];

	(void)state;
	run(0, out, sizeof(out));
	assert_string_equal(out, ""); /* a pipe is not a terminal */
	run(1, out, sizeof(out));
	assert_non_null(strstr(out, "100%  40000/40000 files  0.1/0.1 MB"));
	assert_non_null(strstr(out, " in ")); /* the final line */
	assert_int_equal(out[strlen(out) - 1], '\n');
	assert_null(strchr(out, '\r'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_threads_and_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
