/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The mkfs programs' shared option layer: value parsers (errors name the
 * option and the value), option routing by code and by name, mksquashfs
 * spellings, SOURCE_DATE_EPOCH, SOURCE/IMAGE words, the image-location
 * check and the tree the options describe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tree/arg_value.h"
#include "mkfs/source_args.h"
#include "tree_test_util.h"

static void test_numbers_and_sizes(void **state)
{
	struct ff_err err = { 0, "" };
	uint32_t v = 0;

	(void)state;
	assert_int_equal(ff_arg_u32("-j", "8", 1, 1024, &v, &err), 0);
	assert_int_equal(v, 8);
	assert_int_equal(ff_arg_u32("-j", "0", 1, 1024, &v, &err), -1);
	assert_non_null(strstr(err.msg, "-j: '0'"));
	assert_int_equal(ff_arg_u32("-j", "-3", 0, 1024, &v, &err), -1);
	assert_int_equal(ff_arg_u32("-j", "7x", 0, 1024, &v, &err), -1);
	assert_int_equal(ff_arg_u32("-j", "", 0, 1024, &v, &err), -1);

	assert_int_equal(ff_arg_size("-b", "128K", 4096, 1 << 20, &v, &err), 0);
	assert_int_equal(v, 128 * 1024);
	assert_int_equal(ff_arg_size("-b", "1m", 4096, 1 << 20, &v, &err), 0);
	assert_int_equal(v, 1 << 20);
	assert_int_equal(ff_arg_size("-b", "65536", 4096, 1 << 20, &v, &err), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(ff_arg_size("-b", "2M", 4096, 1 << 20, &v, &err), -1);
	assert_non_null(strstr(err.msg, "-b: '2M'"));
	assert_int_equal(ff_arg_size("-b", "2K", 4096, 1 << 20, &v, &err), -1);
	assert_int_equal(ff_arg_size("-b", "K", 4096, 1 << 20, &v, &err), -1);
	assert_int_equal(ff_arg_size("-b", "4KB", 4096, 1 << 20, &v, &err), -1);
	assert_int_equal(ff_arg_size("-b", "99999999999999999999K", 0, UINT32_MAX, &v, &err), -1);
}

static void test_times_and_owners(void **state)
{
	struct ff_err err = { 0, "" };
	int64_t t = -1;

	(void)state;
	assert_int_equal(ff_arg_time("--mtime", "4294967295", &t, &err), 0);
	assert_true(t == 4294967295LL);
	assert_int_equal(ff_arg_time("--mtime", "4294967296", &t, &err), -1);
	assert_int_equal(ff_arg_time("--mtime", "yesterday", &t, &err), -1);
	assert_non_null(strstr(err.msg, "--mtime: 'yesterday'"));

	assert_int_equal(ff_arg_owner("--force-uid", "1234", 0, &t, &err), 0);
	assert_int_equal(t, 1234);
	t = -1;
	assert_int_equal(ff_arg_owner("--force-uid", "root", 0, &t, &err), 0);
	assert_int_equal(t, 0);
	t = -1;
	assert_int_equal(ff_arg_owner("--force-gid", "root", 1, &t, &err), 0);
	assert_int_equal(t, 0);
	assert_int_equal(ff_arg_owner("--force-gid", "no-such-group-here", 1, &t, &err), -1);
	assert_non_null(strstr(err.msg, "--force-gid: 'no-such-group-here'"));
	assert_non_null(strstr(err.msg, "group"));
}

/* The mksquashfs 4.6/4.7 options: where each value lands. */
static void test_msq46_options(void **state)
{
	struct ff_source_args a;
	struct ff_err err = { 0, "" };
	const struct ff_dir_defaults *pd = &a.tree.pseudo_dirs, *td = &a.tree.tar_dirs;

	(void)state;
	ff_source_args_init(&a);
	assert_int_equal(ff_source_args_option_name(&a, "pseudo-dir", "D 99 711 7 8", &err), 0);
	assert_int_equal(pd->set, FF_DEF_MODE | FF_DEF_UID | FF_DEF_GID | FF_DEF_TIME);
	assert_true(pd->mode == 0711 && pd->uid == 7 && pd->gid == 8 && pd->mtime == 99);
	assert_int_equal(ff_source_args_option_name(&a, "pseudo-dir", "d 700 1 2", &err), 0);
	assert_true(pd->set == (FF_DEF_MODE | FF_DEF_UID | FF_DEF_GID) && pd->mode == 0700);
	assert_int_equal(ff_source_args_option_name(&a, "pseudo-dir", "d 700 1", &err), -1);
	assert_non_null(strstr(err.msg, "--pseudo-dir"));
	assert_int_equal(ff_source_args_option_name(&a, "pseudo-dir", "d 800 1 2", &err), -1);
	/* -default-*: tar's implied directories and the root */
	assert_int_equal(ff_source_args_option_name(&a, "default-mode", "0700", &err), 0);
	assert_int_equal(ff_source_args_option_name(&a, "default-uid", "12", &err), 0);
	assert_true(td->mode == 0700 && td->uid == 12 && (td->set & FF_DEF_GID) == 0);
	assert_string_equal(a.tree.root_mode, "0700");
	assert_true(a.tree.root_uid == 12 && (a.tree.root_set & FF_ROOT_UID));
	assert_int_equal(ff_source_args_option_name(&a, "max-depth", "0", &err), 0);
	assert_true(a.tree.has_max_depth && a.tree.max_depth == 0);
	assert_int_equal(ff_source_args_option_name(&a, "max-depth", "-1", &err), -1);
	assert_int_equal(ff_source_args_option_name(&a, "one-file-system-x", NULL, &err), 0);
	assert_int_equal(a.tree.one_file_system, 2);
	assert_int_equal(ff_source_args_option_name(&a, "xattrs-add", "user.a=1", &err), 0);
	assert_int_equal(a.xattrs_add.n, 1);
	assert_int_equal(ff_source_args_option_name(&a, "cpio-style0", NULL, &err), 0);
	assert_int_equal(a.cpio, FF_CPIO_NUL);
	ff_source_args_free(&a);
}

static void test_option_routing(void **state)
{
	struct ff_source_args a;
	struct ff_err err = { 0, "" };

	(void)state;
	ff_source_args_init(&a);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_ALL_ROOT, NULL, &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_FORCE_UID, "7", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_ALL_TIME, "5", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_EXCLUDE, "x*", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_SPEC, "s1", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_SPEC, "s2", &err), 0);
	assert_int_equal(ff_source_args_option_name(&a, "one-file-system", NULL, &err), 0);
	assert_int_equal(ff_source_args_option_name(&a, "pseudo", "d d 755 0 0", &err), 0);
	assert_int_equal(ff_source_args_option_name(&a, "sort", "f", &err), 0);
	assert_true(a.tree.all_root && a.tree.one_file_system);
	assert_int_equal(a.tree.force_uid, 7);
	assert_int_equal(a.tree.all_time, 5);
	assert_int_equal(a.excludes.n, 1);
	assert_int_equal(a.specs.n, 2);
	assert_string_equal(a.specs.v[1], "s2");
	assert_string_equal(a.pseudo_lines.v[0], "d d 755 0 0");
	assert_string_equal(a.sort_file, "f");

	/* not ours: the main's own codes and names */
	assert_int_equal(ff_source_args_option(&a, 'c', "gzip", &err), 1);
	assert_int_equal(ff_source_args_option(&a, 300, NULL, &err), 1);
	assert_int_equal(ff_source_args_option_name(&a, "block-size", "4K", &err), 1);
	/* bad values and arity name the option */
	assert_int_equal(ff_source_args_option(&a, FF_SRC_FORCE_GID, "-1", &err), -1);
	assert_non_null(strstr(err.msg, "--force-gid: '-1'"));
	assert_int_equal(ff_source_args_option_name(&a, "spec", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "--spec"));
	assert_int_equal(ff_source_args_option_name(&a, "all-root", "1", &err), -1);
	ff_source_args_free(&a);
}

static void test_single_dash(void **state)
{
	(void)state;
	assert_string_equal(ff_source_single_dash("-pf"), "--pseudo-file");
	assert_string_equal(ff_source_single_dash("-p"), "--pseudo");
	assert_string_equal(ff_source_single_dash("-ef"), "--exclude-file");
	assert_string_equal(ff_source_single_dash("-root-owned"), "--all-root");
	assert_string_equal(ff_source_single_dash("-all-time"), "--all-time");
	assert_null(ff_source_single_dash("-comp"));
	assert_null(ff_source_single_dash("--pseudo"));
	assert_null(ff_source_single_dash("-e"));
}

static void test_epoch(void **state)
{
	struct ff_source_args a;
	struct ff_err err = { 0, "" };

	(void)state;
	ff_source_args_init(&a);
	assert_int_equal(ff_source_args_epoch(&a, NULL, &err), 0);
	assert_int_equal(ff_source_args_epoch(&a, "", &err), 0);
	assert_int_equal(a.tree.clamp_time, -1);
	assert_int_equal(ff_source_args_epoch(&a, "x", &err), -1);
	assert_non_null(strstr(err.msg, "SOURCE_DATE_EPOCH: 'x'"));
	assert_int_equal(ff_source_args_epoch(&a, "1500000000", &err), 0);
	assert_int_equal(a.tree.clamp_time, 1500000000);
	/* --mtime wins over the environment */
	ff_source_args_init(&a);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_MTIME, "1600000000", &err), 0);
	assert_int_equal(ff_source_args_epoch(&a, "1500000000", &err), 0);
	assert_int_equal(a.tree.clamp_time, 1600000000);
	ff_source_args_free(&a);
}

static void test_positional(void **state)
{
	char *two[] = { "src", "img" }, *three[] = { "src", "img", "extra" };
	struct ff_source_args a;
	struct ff_err err = { 0, "" };
	const char *image = NULL;

	(void)state;
	ff_source_args_init(&a);
	assert_int_equal(ff_source_args_positional(&a, 2, two, &image, &err), 0);
	assert_string_equal(a.source, "src");
	assert_string_equal(image, "img");
	/* several sources, as mksquashfs: each a root entry */
	assert_int_equal(ff_source_args_positional(&a, 3, three, &image, &err), 0);
	assert_int_equal(a.sources.n, 2);
	assert_string_equal(a.sources.v[1], "img");
	assert_string_equal(image, "extra");
	assert_int_equal(ff_source_args_positional(&a, 0, two, &image, &err), -1);
	a.source = NULL;
	assert_int_equal(ff_source_args_positional(&a, 1, two, &image, &err), -1);
	assert_non_null(strstr(err.msg, "--spec"));
	assert_int_equal(ff_source_args_option(&a, FF_SRC_PSEUDO, "d d 755 0 0", &err), 0);
	assert_int_equal(ff_source_args_positional(&a, 1, two, &image, &err), 0);
	assert_null(a.source);
	assert_string_equal(image, "src");
	ff_source_args_free(&a);
}

static void test_check_image(void **state)
{
	char *dir = tt_mkdtemp(), sub[2048], img[2048];
	char *file = tt_write(dir, "archive.tar", "x", (size_t)-1);
	struct ff_source_args a;
	struct ff_err err = { 0, "" };

	(void)state;
	ff_source_args_init(&a);
	snprintf(sub, sizeof(sub), "%s/src", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	a.source = sub;
	snprintf(img, sizeof(img), "%s/src/deeper/x.img", dir);
	assert_int_equal(ff_source_args_check_image(&a, img, &err), 0); /* no such dir yet */
	snprintf(img, sizeof(img), "%s/src/x.img", dir);
	assert_int_equal(ff_source_args_check_image(&a, img, &err), -1);
	assert_non_null(strstr(err.msg, "inside SOURCE"));
	snprintf(img, sizeof(img), "%s/src-sibling.img", dir);
	assert_int_equal(ff_source_args_check_image(&a, img, &err), 0);
	a.source = file;
	assert_int_equal(ff_source_args_check_image(&a, file, &err), -1);
	assert_non_null(strstr(err.msg, "same file"));
	a.source = "-";
	assert_int_equal(ff_source_args_check_image(&a, file, &err), 0);
	ff_source_args_free(&a);
	free(file);
	tt_rmrf(dir);
	free(dir);
}

static void collect(void *ctx, const struct ff_warning *w)
{
	assert_int_equal(w->kind, FF_WARN_IGNORED); /* the sort-file line */
	snprintf(ctx, 512, "%s", w->msg);
}

static void test_build(void **state)
{
	char *dir = tt_mkdtemp(), src[2048], msg[512] = "";
	char *ef, *sort;
	struct ff_source_args a;
	struct ff_err err = { 0, "" };
	struct ff_tree *t;

	(void)state;
	snprintf(src, sizeof(src), "%s/src", dir);
	assert_int_equal(mkdir(src, 0755), 0);
	free(tt_write(src, "keep", "k", (size_t)-1));
	free(tt_write(src, "noise.log", "n", (size_t)-1));
	free(tt_write(src, "gone", "g", (size_t)-1));
	ef = tt_write(dir, "ex", "# a comment\n\n*.log\n", (size_t)-1);
	sort = tt_write(dir, "sort", "not/there 5\n", (size_t)-1);

	ff_source_args_init(&a);
	a.source = src;
	a.warn = collect;
	a.warn_ctx = msg;
	assert_int_equal(ff_source_args_option(&a, FF_SRC_EXCLUDE_FILE, ef, &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_EXCLUDE, "gone", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_PSEUDO, "made d 700 1 2", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_FORCE_UID, "9", &err), 0);
	assert_int_equal(ff_source_args_option(&a, FF_SRC_SORT, sort, &err), 0);
	t = ff_source_args_build(&a, &err);
	assert_non_null(t);
	assert_non_null(tt_find(t, "keep"));
	assert_non_null(tt_find(t, "made"));
	assert_null(tt_find(t, "noise.log"));
	assert_null(tt_find(t, "gone"));
	assert_int_equal(tt_find(t, "keep")->uid, 9);
	assert_int_equal(a.warnings, 1);
	assert_non_null(strstr(msg, "not/there"));
	ff_tree_free(t);
	ff_source_args_free(&a);

	/* a missing SOURCE or exclude file: an error naming it, no tree */
	ff_source_args_init(&a);
	a.source = "/nonexistent/source";
	assert_null(ff_source_args_build(&a, &err));
	assert_non_null(strstr(err.msg, "/nonexistent/source"));
	a.source = src;
	assert_int_equal(ff_source_args_option(&a, FF_SRC_EXCLUDE_FILE, "/nonexistent/ex", &err), 0);
	assert_null(ff_source_args_build(&a, &err));
	assert_non_null(strstr(err.msg, "/nonexistent/ex"));
	ff_source_args_free(&a);
	free(ef);
	free(sort);
	tt_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_sizes),
		cmocka_unit_test(test_times_and_owners),
		cmocka_unit_test(test_option_routing),
		cmocka_unit_test(test_single_dash),
		cmocka_unit_test(test_epoch),
		cmocka_unit_test(test_msq46_options),
		cmocka_unit_test(test_positional),
		cmocka_unit_test(test_check_image),
		cmocka_unit_test(test_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
