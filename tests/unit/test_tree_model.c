/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The source-tree model: directory order, numbering, link counts, the
 * global options applied by finish, hard-link primaries, path rules,
 * excludes, content reading and the directory scanner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/xattr.h>

#include "tree/tree_priv.h"
#include "tree_test_util.h"

static struct ff_node *add(struct ff_tree *t, struct ff_node *dir, const char *name,
			   uint32_t mode)
{
	struct ff_err err = { 0 };
	struct ff_node *n = ff_tree_add_child(t, dir, name, strlen(name), mode, &err);

	assert_non_null(n);
	return n;
}

static void test_sort_order(void **state)
{
	const char *names[] = { "b", "a", "ab", "\xff", "A", "a b" };
	const char *want[] = { "A", "a", "a b", "ab", "b", "\xff" };
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *root = ff_tree_root(t);

	(void)state;
	for (size_t i = 0; i < 6; i++)
		add(t, root, names[i], S_IFREG | 0644);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(root->n_children, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(ff_node_name(root->children[i]), want[i]);
	ff_tree_free(t);
}

static void test_numbering_and_nlink(void **state)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *root = ff_tree_root(t), *d, *e, *f, *g;
	char path[64];

	(void)state;
	g = add(t, root, "g", S_IFREG | 0644);
	d = add(t, root, "d", S_IFDIR | 0755);
	f = add(t, d, "f", S_IFREG | 0644);
	e = add(t, d, "e", S_IFDIR | 0755);
	g->size = 5;
	f->size = 7;
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(ff_tree_count(t), 5);
	assert_int_equal(ff_tree_data_bytes(t), 12);
	assert_int_equal(root->index, 1);
	assert_int_equal(d->index, 2);
	assert_int_equal(e->index, 3);
	assert_int_equal(f->index, 4);
	assert_int_equal(g->index, 5);
	assert_int_equal(ff_node_nlink(root), 3);
	assert_int_equal(ff_node_nlink(d), 3);
	assert_int_equal(ff_node_nlink(e), 2);
	assert_int_equal(ff_node_nlink(f), 1);
	assert_int_equal(ff_node_path(f, path, sizeof(path)), 3);
	assert_string_equal(path, "d/f");
	assert_int_equal(ff_node_path(root, path, sizeof(path)), 0);
	assert_int_equal(ff_node_path(f, path, 3), -1);
	assert_ptr_equal(ff_tree_next(t, g), NULL);
	ff_tree_free(t);
}

static void test_options(void **state)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t;
	struct ff_node *a, *b;

	(void)state;
	o.all_root = 1;
	o.force_gid = 7;
	o.clamp_time = 1000;
	t = ff_tree_new(&o, &err);
	a = add(t, ff_tree_root(t), "a", S_IFREG | 0644);
	b = add(t, ff_tree_root(t), "b", S_IFREG | 0644);
	a->uid = a->gid = 55;
	a->mtime = 5000;
	b->mtime = 10;
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(a->uid, 0);
	assert_int_equal(a->gid, 7);
	assert_int_equal(a->mtime, 1000);
	assert_int_equal(b->mtime, 10);
	ff_tree_free(t);

	o = tt_opts();
	o.force_uid = 3;
	o.all_time = 42;
	t = ff_tree_new(&o, &err);
	a = add(t, ff_tree_root(t), "a", S_IFREG | 0644);
	a->uid = 9;
	a->gid = 9;
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(a->uid, 3);
	assert_int_equal(a->gid, 9);
	assert_int_equal(a->mtime, 42);
	assert_int_equal(ff_tree_root(t)->mtime, 42);
	/* no more sources after finish */
	assert_int_equal(ff_tree_finish(t, &err), -1);
	ff_tree_free(t);
}

/* The primary of a hard-link group is its first name in pre-order,
 * whichever name the source saw first. */
static void test_hardlink_primary(void **state)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *root = ff_tree_root(t), *z, *a, *p, *q, *r;

	(void)state;
	z = add(t, root, "z", S_IFDIR | 0755);
	a = add(t, root, "a", S_IFDIR | 0755);
	p = add(t, z, "p", S_IFREG | 0600);
	p->size = 10;
	p->uid = 4;
	assert_int_equal(ff_node_set_src(p, "/nonexistent/src", &err), 0);
	assert_int_equal(ff_node_set_xattr(p, "user.k", "v", 1, &err), 0);
	q = add(t, a, "q", S_IFREG);
	r = add(t, z, "r", S_IFREG);
	assert_int_equal(ff_node_make_link(q, p, &err), 0);
	assert_int_equal(ff_node_make_link(r, q, &err), 0); /* resolves to p */
	/* names behind a node's outside part are still found */
	assert_ptr_equal(ff_tree_lookup(t, "z/p"), p);
	assert_ptr_equal(ff_tree_lookup(t, "a/q"), q);
	assert_ptr_equal(ff_tree_lookup(t, "z/r"), r);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_null(ff_node_link(q));
	assert_ptr_equal(ff_node_link(p), q);
	assert_ptr_equal(ff_node_link(r), q);
	assert_string_equal(q->src_path, "/nonexistent/src");
	assert_int_equal(ff_node_n_xattrs(q), 1);
	assert_int_equal(q->size, 10);
	assert_int_equal(q->uid, 4);
	assert_int_equal(ff_node_nlink(q), 3);
	assert_int_equal(ff_node_nlink(p), 3);
	assert_int_equal(p->size, 10);
	assert_int_equal(ff_tree_data_bytes(t), 10);
	/* the link and xattrs live outside the node, with a copy of its
	 * name; nodes with neither have no such part */
	assert_string_equal(ff_node_name(p), "p");
	assert_string_equal(ff_node_name(q), "q");
	assert_string_equal(ff_node_name(r), "r");
	assert_null(ff_node_ext_of(z));
	assert_null(ff_node_link(z));
	assert_int_equal(ff_node_n_xattrs(z), 0);
	assert_ptr_equal(ff_node_primary(r), q);
	assert_ptr_equal(ff_node_primary(q), q);
	ff_tree_free(t);
}

static void test_link_errors(void **state)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *root = ff_tree_root(t), *d, *f;

	(void)state;
	d = add(t, root, "d", S_IFDIR | 0755);
	f = add(t, root, "f", S_IFREG | 0644);
	assert_int_equal(ff_node_make_link(f, d, &err), -1);
	assert_non_null(strstr(err.msg, "directory"));
	assert_int_equal(ff_node_make_link(f, f, &err), -1);
	add(t, d, "x", S_IFREG);
	assert_int_equal(ff_node_reset(d, S_IFREG | 0644, &err), -1);
	assert_non_null(strstr(err.msg, "non-empty directory"));
	assert_null(ff_tree_add_child(t, f, "y", 1, S_IFREG, &err));
	assert_non_null(strstr(err.msg, "not a directory"));
	assert_null(ff_tree_add_child(t, d, "x", 0, S_IFREG, &err));
	ff_tree_free(t);
}

static void test_xattr_order(void **state)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *f = add(t, ff_tree_root(t), "f", S_IFREG | 0644);

	(void)state;
	assert_int_equal(ff_node_set_xattr(f, "user.b", "1", 1, &err), 0);
	assert_int_equal(ff_node_set_xattr(f, "security.x", "2", 1, &err), 0);
	assert_int_equal(ff_node_set_xattr(f, "user.a", "3", 1, &err), 0);
	assert_int_equal(ff_node_set_xattr(f, "user.b", "44", 2, &err), 0);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(ff_node_n_xattrs(f), 3);
	assert_string_equal(ff_node_xattrs(f)[0].name, "security.x");
	assert_string_equal(ff_node_xattrs(f)[1].name, "user.a");
	assert_string_equal(ff_node_xattrs(f)[2].name, "user.b");
	assert_int_equal(ff_node_xattrs(f)[2].len, 2);
	ff_tree_free(t);

	o.no_xattrs = 1;
	t = ff_tree_new(&o, &err);
	f = add(t, ff_tree_root(t), "f", S_IFREG | 0644);
	assert_int_equal(ff_node_set_xattr(f, "user.b", "1", 1, &err), 0);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(ff_node_n_xattrs(f), 0);
	ff_tree_free(t);
}

static void check_norm(const char *in, const char *want)
{
	struct ff_err err = { 0 };
	char buf[600];

	snprintf(buf, sizeof(buf), "%s", in);
	if (!want) {
		assert_int_equal(ff_path_normalise(buf, &err), -1);
		return;
	}
	assert_int_equal(ff_path_normalise(buf, &err), 0);
	assert_string_equal(buf, want);
}

static void test_paths(void **state)
{
	char longname[300];

	(void)state;
	check_norm("./a//b/", "a/b");
	check_norm("/", "");
	check_norm("./", "");
	check_norm(".", "");
	check_norm("a/./b/.", "a/b");
	check_norm("/usr/lib", "usr/lib");
	check_norm("..", NULL);
	check_norm("a/../b", NULL);
	check_norm("a/..", NULL);
	check_norm("...", "...");
	memset(longname, 'n', 256);
	longname[256] = '\0';
	check_norm(longname, NULL);
	longname[255] = '\0';
	check_norm(longname, longname);
}

static void test_excludes(void **state)
{
	const char *pats[] = { "sub", "*.o", "/abs/x", "... *.tmp", NULL };
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t;

	(void)state;
	o.excludes = pats;
	t = ff_tree_new(&o, &err);
	assert_true(ff_tree_excluded(t, "sub"));
	assert_true(ff_tree_excluded(t, "sub/deep/file"));
	assert_true(ff_tree_excluded(t, "x.o"));
	assert_false(ff_tree_excluded(t, "dir/x.o"));
	assert_false(ff_tree_excluded(t, "subway"));
	assert_true(ff_tree_excluded(t, "abs/x"));
	assert_false(ff_tree_excluded(t, ""));
	assert_true(ff_tree_excluded(t, "x.tmp"));
	assert_true(ff_tree_excluded(t, "a/b/x.tmp"));
	assert_true(ff_tree_excluded(t, "a/b.tmp/c")); /* below an excluded dir */
	assert_false(ff_tree_excluded(t, "a/x.tmpx"));
	ff_tree_free(t);
}

static void test_data_reads(void **state)
{
	char *dir = tt_mkdtemp(), *path = tt_write(dir, "f", "0123456789", (size_t)-1);
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *f;
	struct ff_data *d;
	char buf[32];

	(void)state;
	assert_int_equal(ff_tree_add_dir(t, dir, &err), 0);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	f = tt_find(t, "f");
	assert_non_null(f);
	assert_int_equal(f->size, 10);
	d = ff_tree_open_data(t, f, &err);
	assert_non_null(d);
	assert_int_equal(ff_data_pread(d, buf, 4, 3, &err), 4);
	assert_memory_equal(buf, "3456", 4);
	assert_int_equal(ff_data_pread(d, buf, sizeof(buf), 8, &err), 2);
	assert_int_equal(ff_data_pread(d, buf, sizeof(buf), 10, &err), 0);
	/* the file shrinks after the scan */
	assert_int_equal(truncate(path, 6), 0);
	assert_int_equal(ff_data_pread(d, buf, 10, 0, &err), -1);
	assert_non_null(strstr(err.msg, "file shrank while being read (expected 10 bytes, got 6)"));
	assert_non_null(strstr(err.msg, path));
	ff_data_close(d);
	/* and then vanishes */
	assert_int_equal(unlink(path), 0);
	assert_null(ff_tree_open_data(t, f, &err));
	assert_non_null(strstr(err.msg, path));
	ff_tree_free(t);
	tt_rmrf(dir);
	free(path);
	free(dir);
}

static void test_big_directory(void **state)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);
	struct ff_node *root = ff_tree_root(t), *d = add(t, root, "d", S_IFDIR | 0755);
	char name[32];

	(void)state;
	for (int i = 4999; i >= 0; i--) {
		snprintf(name, sizeof(name), "f%05d", i);
		add(t, d, name, S_IFREG | 0644);
	}
	assert_non_null(ff_tree_lookup(t, "d/f02500"));
	assert_null(ff_tree_lookup(t, "d/f05000"));
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(ff_tree_count(t), 5002);
	for (uint32_t i = 1; i < d->n_children; i++)
		assert_true(strcmp(ff_node_name(d->children[i - 1]),
				   ff_node_name(d->children[i])) < 0);
	ff_tree_free(t);
}

static void test_scan_dir(void **state)
{
	char *dir = tt_mkdtemp(), sub[4200], p[4200];
	const char *pats[] = { "skip*", NULL };
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t;
	struct ff_node *n;
	int has_xattr;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	free(tt_write(dir, "b", "hello", (size_t)-1));
	free(tt_write(dir, "skipme", "x", (size_t)-1));
	snprintf(p, sizeof(p), "%s/b", dir);
	snprintf(sub, sizeof(sub), "%s/sub/a", dir);
	assert_int_equal(link(p, sub), 0);
	snprintf(p, sizeof(p), "%s/sub/l", dir);
	assert_int_equal(symlink("../b", p), 0);
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0640), 0);
	snprintf(p, sizeof(p), "%s/b", dir);
	has_xattr = setxattr(p, "user.t", "v", 1, 0) == 0;
	o.excludes = pats;
	t = ff_tree_new(&o, &err);
	assert_int_equal(ff_tree_add_dir(t, dir, &err), 0);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	assert_int_equal(ff_tree_count(t), 6); /* root b fifo sub sub/a sub/l */
	assert_null(tt_find(t, "skipme"));
	n = tt_find(t, "b");
	assert_non_null(n);
	assert_null(ff_node_link(n));
	assert_int_equal(ff_node_nlink(n), 2);
	assert_int_equal(ff_node_n_xattrs(n), has_xattr ? 1 : 0);
	assert_ptr_equal(ff_node_link(tt_find(t, "sub/a")), n);
	assert_string_equal(tt_find(t, "sub/l")->target, "../b");
	assert_int_equal(tt_find(t, "sub/l")->size, 4);
	assert_true(S_ISFIFO(tt_find(t, "fifo")->mode));
	assert_int_equal(tt_find(t, "fifo")->mode & 07777, 0640 & ~0);
	assert_int_equal(tt_find(t, "sub")->mode & 07777, 0700);
	ff_tree_free(t);

	t = ff_tree_new(&o, &err);
	assert_int_equal(ff_tree_add_dir(t, p, &err), -1);
	assert_non_null(strstr(err.msg, "not a directory"));
	ff_tree_free(t);
	tt_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_order),
		cmocka_unit_test(test_numbering_and_nlink),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_hardlink_primary),
		cmocka_unit_test(test_link_errors),
		cmocka_unit_test(test_xattr_order),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_excludes),
		cmocka_unit_test(test_data_reads),
		cmocka_unit_test(test_big_directory),
		cmocka_unit_test(test_scan_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
