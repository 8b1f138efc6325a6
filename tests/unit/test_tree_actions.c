/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs actions (tree/action.c, tree/action_eval.c) and chmod-style
 * mode expressions (tree/mode_expr.c): good lines parse and change the tree
 * as mksquashfs would; every bad line fails naming the action text and the
 * problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "tree/tree_priv.h"
#include "tree_test_util.h"

static void test_mode_expr(void **state)
{
	static const struct { const char *expr; uint32_t from, to; } cases[] = {
		{ "0755", S_IFREG | 0600, S_IFREG | 0755 },
		{ "u+x", S_IFREG | 0644, S_IFREG | 0744 },
		{ "go-rwx", S_IFREG | 0777, S_IFREG | 0700 },
		{ "a=r", S_IFREG | 0777, S_IFREG | 0444 },
		{ "u=rwx,go=rx,+t", S_IFDIR | 0, S_IFDIR | 01755 },
		{ "a+X", S_IFDIR | 0600, S_IFDIR | 0711 },
		{ "a+X", S_IFREG | 0600, S_IFREG | 0600 },
		{ "ug+s", S_IFREG | 0755, S_IFREG | 06755 },
		{ "+w", S_IFREG | 0444, S_IFREG | 0666 },
	};
	const char *bad[] = { "", "9", "u+q", "u", "u+r,", "077777", "rw" };
	struct ff_err err = { 0, "" };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t m = cases[i].from;

		assert_int_equal(ff_mode_expr_apply(cases[i].expr, &m), 0);
		assert_int_equal(m, cases[i].to);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t m = 0644;

		assert_int_equal(ff_mode_expr_apply(bad[i], &m), -1);
	}
	assert_int_equal(ff_mode_expr_check("--root-mode", "u+q", &err), -1);
	assert_non_null(strstr(err.msg, "--root-mode: 'u+q'"));
}

static void test_parse_good(void **state)
{
	const char *good[] = {
		"exclude@name(*.h)", "exclude()@name(*.h)", "prune @ pathname(a/b) ",
		"chmod(u=rw,go=r)@type(f)", "uid(0)@true", "gid(root)@false",
		"guid(0,0)@ perm(/u+s)", "fragment(libs)@name(*.so)",
		"exclude@!(name(a) || name(b)) && depth(>2)", "exclude@size(<80K)",
		"exclude@filesize(-81920) && dirsize(+1)", "exclude@uid(0) || gid(>10)",
		"exclude@name(\"file name\")", "exclude@name(file\\ name)",
		"exclude@subpathname(usr/lib)", "exclude@perm(-0644)", "exclude@perm(0644)",
	};
	struct ff_actions *a = ff_actions_new();
	struct ff_err err = { 0, "" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (ff_actions_add(a, good[i], FF_ACTION_LOG_NONE, &err))
			fail_msg("'%s': %s", good[i], err.msg);
	}
	assert_int_equal(ff_actions_count(a), sizeof(good) / sizeof(good[0]));
	ff_actions_free(a);
}

static void test_parse_bad(void **state)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "frob@true", "unknown or unsupported action 'frob'" },
		{ "empty@true", "unknown or unsupported action 'empty'" },
		{ "exclude@readlink(x)", "unknown or unsupported test 'readlink'" },
		{ "exclude", "expected '@'" },
		{ "@true", "no action before '@'" },
		{ "exclude@", "the expression ends too early" },
		{ "exclude@name(a", "expected ',' or ')'" },
		{ "exclude@name(a,b,c)", "name: needs one argument" },
		{ "exclude@name(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)", "too many arguments" },
		{ "exclude@name", "name: needs one argument" },
		{ "exclude@true(1)", "true: takes no argument" },
		{ "exclude@type(x)", "type(x): not one of f d l b c p s" },
		{ "exclude@size(big)", "size: the argument is not a number" },
		{ "exclude@perm(u+q)", "perm(u+q): not an octal or symbolic mode" },
		{ "chmod(u+q)@true", "chmod(u+q): not an octal or symbolic mode" },
		{ "chmod@true", "chmod: wrong number of arguments" },
		{ "exclude@(true", "missing ')'" },
		{ "exclude@true true", "unexpected 'true' after the expression" },
		{ "exclude@name(\"open)", "unterminated \"" },
		{ "uid(no_such_user_x)@true", "no_such_user_x" },
	};
	struct ff_actions *a = ff_actions_new();
	struct ff_err err;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct ff_err){ 0, "" };
		assert_int_equal(ff_actions_add(a, bad[i].text, FF_ACTION_LOG_NONE, &err), -1);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("'%s': got '%s', want '%s'", bad[i].text, err.msg, bad[i].msg);
	}
	assert_int_equal(ff_actions_count(a), 0);
	ff_actions_free(a);
}

static void test_action_file(void **state)
{
	char *dir = tt_mkdtemp();
	const char text[] = "# comment\n\nexclude@\\\nname(x)\nprune@bogus(1)\n";
	char *path = tt_write(dir, "actions", text, sizeof(text) - 1);
	struct ff_actions *a = ff_actions_new();
	struct ff_err err = { 0, "" };

	(void)state;
	assert_int_equal(ff_actions_add_file(a, path, FF_ACTION_LOG_NONE, &err), -1);
	assert_int_equal(ff_actions_count(a), 1);
	assert_non_null(strstr(err.msg, "actions:5:"));
	assert_non_null(strstr(err.msg, "unknown or unsupported test 'bogus'"));
	ff_actions_free(a);
	tt_rmrf(dir);
	free(path);
	free(dir);
}

/* A tree a/x (hard-linked as b/x-link), a/y.h, b/dir/z; then actions. */
static struct ff_tree *small_tree(struct ff_actions *acts, struct ff_err *err)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_tree *t;
	struct ff_node *x;

	o.actions = acts;
	t = ff_tree_new(&o, err);
	assert_non_null(t);
	x = ff_tree_put_path(t, "a/x", S_IFREG | 0644, err);
	assert_non_null(x);
	x->size = 100;
	assert_non_null(ff_tree_put_path(t, "a/y.h", S_IFREG | 0644, err));
	assert_non_null(ff_tree_put_path(t, "b/dir/z", S_IFREG | 0600, err));
	assert_non_null(ff_tree_put_link(t, "b/x-link", "a/x", err));
	return t;
}

static void test_apply(void **state)
{
	struct ff_actions *a = ff_actions_new();
	struct ff_err err = { 0, "" };
	struct ff_tree *t;
	struct ff_node *n;

	(void)state;
	assert_int_equal(ff_actions_add(a, "exclude@name(*.h)", 0, &err), 0);
	assert_int_equal(ff_actions_add(a, "prune@pathname(a/x)", 0, &err), 0);
	assert_int_equal(ff_actions_add(a, "chmod(go-r)@type(f) && size(>50)", 0, &err), 0);
	assert_int_equal(ff_actions_add(a, "uid(7)@subpathname(b)", 0, &err), 0);
	assert_int_equal(ff_actions_add(a, "gid(9)@depth(1) && type(d)", 0, &err), 0);
	t = small_tree(a, &err);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_null(tt_find(t, "a/y.h"));
	assert_null(tt_find(t, "a/x"));
	/* the pruned primary's other name keeps the content and metadata:
	 * chmod ran (stage 2) before the prune (stage 3) */
	n = tt_find(t, "b/x-link");
	assert_non_null(n);
	assert_null(ff_node_link(n));
	assert_int_equal(ff_node_nlink(n), 1);
	assert_int_equal(n->mode, S_IFREG | 0600);
	assert_int_equal(n->size, 100);
	assert_int_equal(tt_find(t, "b/dir/z")->uid, 7);
	assert_int_equal(tt_find(t, "b")->gid, 9);
	assert_int_equal(tt_find(t, "b/dir")->gid, 0);
	ff_tree_free(t);
	ff_actions_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode_expr),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_action_file),
		cmocka_unit_test(test_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
