/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* common/regex.c: the estimate of the tree glibc's regcomp builds, and
 * ff_regcomp_ere refusing what would explode before regcomp sees it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/regex.h"

static void estimates(void **state)
{
	(void)state;
	assert_true(ff_regex_nodes("lib.*\\.so") < 20);
	assert_true(ff_regex_nodes("^[[:alpha:]]+[]x-]{2,3}$") < 20);
	assert_true(ff_regex_nodes("a{2000}") <= FF_REGEX_MAX_NODES);
	assert_true(ff_regex_nodes("a{32767}") > FF_REGEX_MAX_NODES);
	/* regcomp's closures cost the square of these: 4093 nodes, 0.5 s */
	assert_true(ff_regex_nodes("a*+*+*+*+*+*+*+*+*+*+") > FF_REGEX_MAX_NODES);
	/* each + doubles, each count multiplies, nested or stacked */
	assert_true(ff_regex_nodes("a++++++++++") > 1000);
	assert_true(ff_regex_nodes("a{1000}{1000}") > 999999);
	assert_true(ff_regex_nodes("((a{100}){100}){100}") > FF_REGEX_MAX_NODES);
	/* escapes, brackets and braces that are no count are one character */
	assert_true(ff_regex_nodes("\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+\\+") < 40);
	assert_true(ff_regex_nodes("[+][+][+][+][+][+][+][+][+][+][+][+][+][+][+]") < 40);
	assert_true(ff_regex_nodes("a{x}{y}{z}") < 20);
	/* unbalanced text is estimated as far as it goes, and never crashes */
	assert_true(ff_regex_nodes("((((a+)+)+") > 10);
	assert_true(ff_regex_nodes(")))|||[") < 20);
	assert_true(ff_regex_nodes("[[:alpha:") < 20);
	assert_true(ff_regex_nodes("\\") < 5);
}

static void compiles_or_refuses(void **state)
{
	char plus[200] = "-";
	struct ff_err err = {0};
	regex_t re;

	(void)state;
	assert_int_equal(ff_regcomp_ere(&re, "^lib.*\\.so$", &err), 0);
	assert_int_equal(regexec(&re, "libc.so", 0, NULL, 0), 0);
	regfree(&re);
	/* the options fuzzer's input, which asked regcomp for 2.5 GB */
	memset(plus + 1, '+', 80);
	assert_int_equal(ff_regcomp_ere(&re, plus, &err), -1);
	assert_non_null(strstr(err.msg, "a repetition of something repeated"));
	assert_int_equal(ff_regcomp_ere(&re, "a{3000}", &err), -1);
	assert_non_null(strstr(err.msg, "expand to more than 2048 nodes"));
	/* CI's options fuzzer: a mutation of it, 82056 nodes, 39 s in regcomp */
	assert_int_equal(ff_regcomp_ere(&re, "iign-++++++*x+*+++++++++++++++b", &err), -1);
	/* a repetition of something repeated: glibc's epsilon closures took
	 * minutes on a.aa{0,3}{5,9}+{1,}{5,9}, 1363 nodes */
	assert_int_equal(ff_regcomp_ere(&re, "a.aa{0,3}{5,9}+{1,}{5,9}", &err), -1);
	assert_non_null(strstr(err.msg, "a repetition of something repeated"));
	assert_int_equal(ff_regcomp_ere(&re, "(ab*){2}", &err), -1);
	assert_int_equal(ff_regcomp_ere(&re, "((a|b)+c)*", &err), -1);
	/* repetitions side by side, or of a group without one, are fine */
	assert_int_equal(ff_regcomp_ere(&re, "^(lib|usr)+/[a-z]*\\.so(\\.[0-9])?$", &err), 0);
	regfree(&re);
	assert_int_equal(ff_regcomp_ere(&re, "a{0,1000}b?c*", &err), 0);
	regfree(&re);
	/* backreferences: not ERE, and matched by backtracking */
	assert_int_equal(ff_regcomp_ere(&re, "(a*)*\\1", &err), -1);
	assert_non_null(strstr(err.msg, "backreference"));
	assert_int_equal(ff_regcomp_ere(&re, "[\\1]x", &err), 0);
	regfree(&re);
	assert_int_equal(ff_regcomp_ere(&re, "(ab", &err), -1);
	assert_non_null(strstr(err.msg, "'(ab' is not a regular expression"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(estimates),
		cmocka_unit_test(compiles_or_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
