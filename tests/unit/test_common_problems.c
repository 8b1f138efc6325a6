/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/problems.c: a sink formats, passes on and counts each problem,
 * and only counts without a callback; a kept list counts every problem,
 * keeps the first `cap` with their flags, replays them with the count of
 * the rest, and is empty again (same cap) once freed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/problems.h"

struct seen {
	int n;
	char last[FF_PROBLEM_MSG_MAX + 16];
	char first[64];
};

static void record(void *ctx, const char *what)
{
	struct seen *s = ctx;

	if (!s->n)
		snprintf(s->first, sizeof(s->first), "%s", what);
	snprintf(s->last, sizeof(s->last), "%s", what);
	s->n++;
}

static void sink_passes_on_and_counts(void **state)
{
	struct seen s = {0};
	struct ff_problem_sink out = { record, &s, 0 };

	(void)state;
	ff_problemf(&out, "inode %u: nlink %d, found %s", 17u, 3, "two");
	assert_int_equal(out.count, 1);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.last, "inode 17: nlink 3, found two");
	ff_problemf(&out, "plain");
	assert_int_equal(out.count, 2);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.last, "plain");
}

static void sink_without_fn_counts(void **state)
{
	struct ff_problem_sink out = { NULL, NULL, 5 };

	(void)state;
	ff_problemf(&out, "nobody listens: %d", 1);
	ff_problemf(&out, "nobody listens: %d", 2);
	assert_int_equal(out.count, 7);
}

static void sink_cuts_long_messages(void **state)
{
	char name[2 * FF_PROBLEM_MSG_MAX];
	struct seen s = {0};
	struct ff_problem_sink out = { record, &s, 0 };

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ff_problemf(&out, "%s", name);
	assert_int_equal(strlen(s.last), FF_PROBLEM_MSG_MAX - 1);
}

static void list_keeps_up_to_cap(void **state)
{
	struct ff_problem_list l;
	struct seen s = {0};

	(void)state;
	ff_problem_list_init(&l, 3);
	for (int i = 0; i < 5; i++)
		assert_int_equal(ff_problem_add(&l, "problem %d", i), 0);
	assert_int_equal(l.total, 5);
	assert_int_equal(ff_problem_kept(&l), 3);
	assert_string_equal(ff_problem_at(&l, 2)->msg, "problem 2");
	assert_null(ff_problem_at(&l, 3));
	assert_int_equal(ff_problem_replay(&l, record, &s), 5);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.first, "problem 0");
	assert_string_equal(s.last, "... and 2 more problems");
	ff_problem_list_free(&l);
}

static void zeroed_list_has_no_cap(void **state)
{
	struct ff_problem_list l;
	struct seen s = {0};

	(void)state;
	memset(&l, 0, sizeof(l));
	for (int i = 0; i < 2000; i++)
		assert_int_equal(ff_problem_add(&l, "PEB %d", i), 0);
	assert_int_equal(l.total, 2000);
	assert_int_equal(ff_problem_kept(&l), 2000);
	assert_string_equal(ff_problem_at(&l, 1999)->msg, "PEB 1999");
	assert_int_equal(ff_problem_replay(&l, record, &s), 2000);
	assert_int_equal(s.n, 2000);
	assert_string_equal(s.last, "PEB 1999");
	ff_problem_list_free(&l);
}

static void list_keeps_flags(void **state)
{
	struct ff_problem_list l;

	(void)state;
	ff_problem_list_init(&l, 2);
	assert_int_equal(ff_problem_add_flag(&l, 1, "damage %s", "a"), 0);
	assert_int_equal(ff_problem_add(&l, "detail"), 0);
	assert_int_equal(ff_problem_add_flag(&l, 1, "damage %s", "b"), 0);
	assert_int_equal(ff_problem_add_flag(&l, 0, "detail 2"), 0);
	assert_int_equal(l.total, 4);
	assert_int_equal(l.flagged, 2);
	assert_int_equal(ff_problem_kept(&l), 2);
	assert_int_equal(ff_problem_at(&l, 0)->flag, 1);
	assert_string_equal(ff_problem_at(&l, 0)->msg, "damage a");
	assert_int_equal(ff_problem_at(&l, 1)->flag, 0);
	ff_problem_list_free(&l);
}

static void freed_list_is_empty_with_its_cap(void **state)
{
	struct ff_problem_list l;
	struct seen s = {0};

	(void)state;
	ff_problem_list_init(&l, 1);
	ff_problem_add_flag(&l, 1, "one");
	ff_problem_add(&l, "two");
	ff_problem_list_free(&l);
	assert_int_equal(l.total, 0);
	assert_int_equal(l.flagged, 0);
	assert_int_equal(ff_problem_kept(&l), 0);
	assert_int_equal(ff_problem_replay(&l, record, &s), 0);
	assert_int_equal(s.n, 0);
	ff_problem_add(&l, "three");
	ff_problem_add(&l, "four");
	assert_int_equal(ff_problem_kept(&l), 1);
	assert_int_equal(l.total, 2);
	ff_problem_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sink_passes_on_and_counts),
		cmocka_unit_test(sink_without_fn_counts),
		cmocka_unit_test(sink_cuts_long_messages),
		cmocka_unit_test(list_keeps_up_to_cap),
		cmocka_unit_test(zeroed_list_has_no_cap),
		cmocka_unit_test(list_keeps_flags),
		cmocka_unit_test(freed_list_is_empty_with_its_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
