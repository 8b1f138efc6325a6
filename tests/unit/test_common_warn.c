/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/warn.c: a warning reaches the callback with its kind, path and
 * formatted message; no callback is no crash; the text helper joins path
 * and message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/warn.h"

struct seen {
	int n;
	enum ff_warn_kind kind;
	char path[64], msg[64];
};

static void record(void *ctx, const struct ff_warning *w)
{
	struct seen *s = ctx;

	s->n++;
	s->kind = w->kind;
	strcpy(s->path, w->path ? w->path : "(none)");
	strcpy(s->msg, w->msg);
}

static void delivered(void **state)
{
	struct seen s = {0};
	char buf[128];

	(void)state;
	ff_warnf(record, &s, FF_WARN_SKIPPED, "a/b", "%s: %d", "open", 13);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.kind, FF_WARN_SKIPPED);
	assert_string_equal(s.path, "a/b");
	assert_string_equal(s.msg, "open: 13");
	ff_warnf(record, &s, FF_WARN_NOTE, NULL, "plain");
	assert_string_equal(s.path, "(none)");
	assert_string_equal(ff_warning_text(&(struct ff_warning){FF_WARN_NOTE, "p", "m"}, buf,
					    sizeof(buf)), "p: m");
	assert_string_equal(ff_warning_text(&(struct ff_warning){FF_WARN_NOTE, NULL, "m"}, buf,
					    sizeof(buf)), "m");
	ff_warnf(NULL, NULL, FF_WARN_NOTE, NULL, "nobody listens");
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(delivered)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
