/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Description-file parsers: the word splitter, spec files, mksquashfs
 * pseudo definitions and sort files.  Good lines build the expected nodes;
 * every bad line fails with "FILE:LINE: problem". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/sysmacros.h>

#include "tree/tree_priv.h"
#include "tree_test_util.h"

struct fixture {
	char *dir;
	struct ff_tree *tree;
	struct ff_err err;
	char warnings[1024];
};

static void collect_warning(void *ctx, const struct ff_warning *w)
{
	struct fixture *f = ctx;
	size_t len = strlen(f->warnings);
	char line[1536];

	snprintf(f->warnings + len, sizeof(f->warnings) - len, "%s\n",
		 ff_warning_text(w, line, sizeof(line)));
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ff_tree_opts o = tt_opts();

	o.warn = collect_warning;
	o.warn_ctx = f;
	f->dir = tt_mkdtemp();
	f->tree = ff_tree_new(&o, &f->err);
	*state = f;
	return f->tree ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ff_tree_free(f->tree);
	tt_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

/* Writes text as a spec file and loads it; returns the rc. */
static int spec(struct fixture *f, const char *text)
{
	char *path = tt_write(f->dir, "t.spec", text, (size_t)-1);
	int rc = ff_tree_add_spec(f->tree, path, &f->err);

	free(path);
	return rc;
}

static void spec_fails(const char *text, const char *where, const char *problem)
{
	struct fixture *f;
	char want[256];

	setup((void **)&f);
	assert_int_equal(spec(f, text), -1);
	snprintf(want, sizeof(want), "%s/t.spec:%s: ", f->dir, where);
	if (strncmp(f->err.msg, want, strlen(want)) || !strstr(f->err.msg, problem))
		fail_msg("got \"%s\", want \"%s...%s\"", f->err.msg, want, problem);
	teardown((void **)&f);
}

static void test_tokenize(void **state)
{
	struct ff_err err = { 0 };
	struct ff_tokens t;

	(void)state;
	assert_int_equal(ff_tokenize("  # comment", &t, &err), 0);
	assert_int_equal(t.n, 0);
	ff_tokens_free(&t);
	assert_int_equal(ff_tokenize("", &t, &err), 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(ff_tokenize("file \"/a b/\\\"q\\\"\"  x\\ y \\x41\\101 k=\"v w\"", &t, &err), 0);
	assert_int_equal(t.n, 5);
	assert_string_equal(t.v[0], "file");
	assert_string_equal(t.v[1], "/a b/\"q\"");
	assert_string_equal(t.v[2], "x y");
	assert_string_equal(t.v[3], "AA");
	assert_string_equal(t.v[4], "k=v w");
	assert_int_equal(t.start[2], 19);
	ff_tokens_free(&t);
	assert_int_equal(ff_tokenize("a \"open", &t, &err), -1);
	assert_non_null(strstr(err.msg, "unterminated"));
	ff_tokens_free(&t);
	assert_int_equal(ff_tokenize("a \\x00", &t, &err), -1);
	ff_tokens_free(&t);
	assert_int_equal(ff_tokenize("a b\\", &t, &err), -1);
	ff_tokens_free(&t);
}

static void test_spec_good(void **state)
{
	struct fixture *f = *state;
	struct ff_node *n;

	free(tt_write(f->dir, "content", "data!", (size_t)-1));
	assert_int_equal(spec(f,
		"# comment\n"
		"\n"
		"dir /dev 0755 0 0\n"
		"nod /dev/console 0600 0 0 c 5 1 mtime=77\n"
		"nod dev/sda 0660 0 6 b 8 0\n"
		"file \"/etc/with space\" 0644 1 2 content xattr=user.k=hello\n"
		"file /etc/empty 0600 0 0 xattr=security.capability=0x01000002\n"
		"slink /lib 0777 0 0 /usr/lib\n"
		"link /etc/hl /etc/empty\n"
		"link /etc/hl2 0 0 0 /etc/empty\n"
		"pipe /run/p 0600 0 0\n"
		"sock /run/s 0600 0 0\n"
		"attr / 0700 - - mtime=9\n"
		"attr /etc/empty - 5 -\n"), 0);
	assert_int_equal(ff_tree_finish(f->tree, &f->err), 0);
	n = tt_find(f->tree, "dev/console");
	assert_true(S_ISCHR(n->mode));
	assert_int_equal(n->mode & 07777, 0600);
	assert_int_equal(n->rdev_major, 5);
	assert_int_equal(n->rdev_minor, 1);
	assert_int_equal(n->mtime, 77);
	assert_true(S_ISBLK(tt_find(f->tree, "dev/sda")->mode));
	n = tt_find(f->tree, "etc/with space");
	assert_int_equal(n->size, 5);
	assert_non_null(strstr(n->src_path, "/content"));
	assert_int_equal(n->uid, 1);
	assert_int_equal(n->gid, 2);
	assert_string_equal(ff_node_xattrs(n)[0].name, "user.k");
	assert_memory_equal(ff_node_xattrs(n)[0].value, "hello", 5);
	n = tt_find(f->tree, "etc/empty");
	assert_int_equal(n->size, 0);
	assert_int_equal(ff_node_nlink(n), 3);
	assert_int_equal(n->uid, 5);
	assert_int_equal(ff_node_xattrs(n)[0].len, 4);
	assert_memory_equal(ff_node_xattrs(n)[0].value, "\x01\x00\x00\x02", 4);
	assert_ptr_equal(ff_node_link(tt_find(f->tree, "etc/hl2")), n);
	assert_string_equal(tt_find(f->tree, "lib")->target, "/usr/lib");
	assert_true(S_ISFIFO(tt_find(f->tree, "run/p")->mode));
	assert_true(S_ISSOCK(tt_find(f->tree, "run/s")->mode));
	assert_int_equal(tt_find(f->tree, "run")->mode, S_IFDIR | 0755);
	assert_int_equal(ff_tree_root(f->tree)->mode & 07777, 0700);
	assert_int_equal(ff_tree_root(f->tree)->mtime, 9);
}

/* A spec line for an existing path overrides it, including its type. */
static void test_spec_override(void **state)
{
	struct fixture *f = *state;
	struct ff_node *n;

	assert_int_equal(spec(f, "file /a 0644 0 0\n"
				 "dir /d 0755 0 0\n"
				 "file /d/x 0644 0 0\n"
				 "dir /d 0700 3 3\n"
				 "slink /a 0777 0 0 target\n"), 0);
	assert_int_equal(ff_tree_finish(f->tree, &f->err), 0);
	n = tt_find(f->tree, "d");
	assert_int_equal(n->mode, S_IFDIR | 0700);
	assert_int_equal(n->n_children, 1);
	assert_true(S_ISLNK(tt_find(f->tree, "a")->mode));
}

static void test_spec_bad(void **state)
{
	(void)state;
	spec_fails("dir a 0755 0 0\nbogus a 1 2 3\n", "2", "unknown line kind \"bogus\"");
	spec_fails("dir a 0955 0 0\n", "1", "bad mode \"0955\"");
	spec_fails("dir a 0755 x 0\n", "1", "bad uid \"x\"");
	spec_fails("dir a 0755 0\n", "1", "needs PATH MODE UID GID");
	spec_fails("\n\nnod a 0600 0 0 q 1 2\n", "3", "device type \"q\"");
	spec_fails("nod a 0600 0 0 c 1\n", "1", "\"nod\" needs 3 words after GID, got 2");
	spec_fails("nod a 0600 0 0\n", "1", "\"nod\" needs 3 words after GID, got 0");
	spec_fails("nod a 0600 0 0 c 5000 1\n", "1", "bad device number");
	spec_fails("file a 0644 0 0 missing\n", "1", "missing\": No such file");
	spec_fails("file a 0644 0 0 . \n", "1", "not a regular file");
	spec_fails("dir a/../b 0755 0 0\n", "1", "\"..\" component");
	spec_fails("dir \"a 0755 0 0\n", "1", "unterminated double quote");
	spec_fails("attr a 0755 0 0\n", "1", "does not exist");
	spec_fails("dir a - 0 0\n", "1", "cannot be \"-\"");
	spec_fails("link a b\n", "1", "link target \"b\" does not exist");
	spec_fails("dir d 0755 0 0\nlink a d\n", "2", "hard link to a directory");
	spec_fails("file a 0644 0 0 mtime=x\n", "1", "bad mtime");
	spec_fails("file a 0644 0 0 xattr=nodot=1\n", "1", "NAMESPACE.NAME=VALUE");
	spec_fails("file a 0644 0 0 xattr=user.a=0x123\n", "1", "odd number");
	spec_fails("file a 0644 0 0 xattr=user.a=0xzz\n", "1", "bad hex digit");
	spec_fails("file a 0644 0 0 extra words\n", "1", "unexpected word \"words\"");
	spec_fails("dir a 0755 0 0 junk\n", "1", "unexpected word \"junk\"");
	spec_fails("file f 0644 0 0\nfile f/x 0644 0 0\n", "2", "is not a directory");
	spec_fails("dir d 0755 0 0\nfile d/x 0644 0 0\nfile d 0644 0 0\n", "3",
		   "non-empty directory");
	spec_fails("slink / 0777 0 0 x\n", "1", "root must be a directory");
}

static void test_spec_missing_file(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ff_tree_add_spec(f->tree, "/nonexistent/x.spec", &f->err), -1);
	assert_non_null(strstr(f->err.msg, "/nonexistent/x.spec: cannot open"));
}

static void test_pseudo_good(void **state)
{
	struct fixture *f = *state;
	char *path = tt_write(f->dir, "p.pf",
			      "dev d 755 0 0\n"
			      "dev/console c 600 root 0 5 1\n"
			      "dev/sda B 1000 660 0 6 8 0\n"
			      "\"dev/my fifo\" i 644 0 0 f\n"
			      "dev/sock I 3 644 0 0 s\n"
			      "dev/p p 600 0 0\n"
			      "etc/hello f 644 0 0 printf 'hi %s' \"there\"\n"
			      "etc/hello x user.a=0x4142\n"
			      "etc/l s 777 0 0 hello\n"
			      "etc/hl l etc/hello\n"
			      "etc M 2000 700 1 1\n", (size_t)-1);
	struct ff_node *n;
	struct ff_data *d;
	char buf[16];

	assert_int_equal(ff_tree_add_pseudo_file(f->tree, path, &f->err), 0);
	assert_int_equal(ff_tree_add_pseudo_line(f->tree, "x D 5 750 2 3", &f->err), 0);
	assert_int_equal(ff_tree_finish(f->tree, &f->err), 0);
	n = tt_find(f->tree, "dev/console");
	assert_int_equal(n->mode, S_IFCHR | 0600);
	assert_int_equal(n->rdev_minor, 1);
	n = tt_find(f->tree, "dev/sda");
	assert_int_equal(n->mode, S_IFBLK | 0660);
	assert_int_equal(n->mtime, 1000);
	assert_int_equal(n->gid, 6);
	assert_true(S_ISFIFO(tt_find(f->tree, "dev/my fifo")->mode));
	assert_true(S_ISSOCK(tt_find(f->tree, "dev/sock")->mode));
	assert_int_equal(tt_find(f->tree, "dev/sock")->mtime, 3);
	assert_true(S_ISFIFO(tt_find(f->tree, "dev/p")->mode));
	n = tt_find(f->tree, "etc/hello");
	assert_int_equal(n->size, 8);
	assert_int_equal(ff_node_nlink(n), 2);
	assert_memory_equal(ff_node_xattrs(n)[0].value, "AB", 2);
	d = ff_tree_open_data(f->tree, n, &f->err);
	assert_non_null(d);
	assert_int_equal(ff_data_pread(d, buf, sizeof(buf), 0, &f->err), 8);
	assert_memory_equal(buf, "hi there", 8);
	ff_data_close(d);
	assert_ptr_equal(ff_node_link(tt_find(f->tree, "etc/hl")), n);
	assert_string_equal(tt_find(f->tree, "etc/l")->target, "hello");
	n = tt_find(f->tree, "etc");
	assert_int_equal(n->mode, S_IFDIR | 0700);
	assert_int_equal(n->mtime, 2000);
	n = tt_find(f->tree, "x");
	assert_int_equal(n->mode, S_IFDIR | 0750);
	free(path);
}

static void pseudo_fails(const char *text, const char *problem)
{
	struct fixture *f;
	char want[256];
	char *path;

	setup((void **)&f);
	path = tt_write(f->dir, "p.pf", text, (size_t)-1);
	assert_int_equal(ff_tree_add_pseudo_file(f->tree, path, &f->err), -1);
	snprintf(want, sizeof(want), "%s:", path);
	if (strncmp(f->err.msg, want, strlen(want)) || !strstr(f->err.msg, problem))
		fail_msg("got \"%s\", want \"%s...%s\"", f->err.msg, want, problem);
	free(path);
	teardown((void **)&f);
}

static void test_pseudo_bad(void **state)
{
	(void)state;
	pseudo_fails("a q 755 0 0\n", "unknown pseudo file type \"q\"");
	pseudo_fails("a d 755 0\n", "needs MODE UID GID");
	pseudo_fails("a d 855 0 0\n", "bad mode");
	pseudo_fails("a d 755 nosuchuser_x 0\n", "unknown user \"nosuchuser_x\"");
	pseudo_fails("a c 600 0 0 5\n", "needs MAJOR MINOR");
	pseudo_fails("a i 600 0 0 z\n", "s (socket) or f (fifo)");
	pseudo_fails("a f 600 0 0 exit 3\n", "exit status 3");
	pseudo_fails("a f 600 0 0\n", "needs a COMMAND");
	pseudo_fails("a m 600 0 0\n", "\"a\" does not exist");
	pseudo_fails("a l b\n", "link target \"b\" does not exist");
	pseudo_fails("a x user.a=1\n", "does not exist");
	pseudo_fails("a d 755 0 0\na x novalue\n", "expected NAMESPACE.NAME=VALUE");
	pseudo_fails("../a d 755 0 0\n", "\"..\" component");
	pseudo_fails("a D x 755 0 0\n", "bad time");
}

static void test_pseudo_line_error(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ff_tree_add_pseudo_line(f->tree, "a z 1 2 3", &f->err), -1);
	assert_non_null(strstr(f->err.msg, "pseudo definition \"a z 1 2 3\": unknown"));
}

static void test_sort_file(void **state)
{
	struct fixture *f = *state;
	char *path;

	assert_int_equal(spec(f, "dir d 0755 0 0\nfile d/a 0644 0 0\nfile d/b 0644 0 0\n"
				 "file c 0644 0 0\n"), 0);
	path = tt_write(f->dir, "sort", "d 10\n# comment\n/d/b -32768\nc 32767\nnothere 1\n",
			(size_t)-1);
	assert_int_equal(ff_tree_load_sort(f->tree, path, &f->err), 0);
	assert_non_null(strstr(f->warnings, "sort:5: \"nothere\" is not in the image"));
	assert_int_equal(ff_tree_finish(f->tree, &f->err), 0);
	assert_int_equal(ff_tree_sort_priority(f->tree, tt_find(f->tree, "d/a")), 10);
	assert_int_equal(ff_tree_sort_priority(f->tree, tt_find(f->tree, "d/b")), -32768);
	assert_int_equal(ff_tree_sort_priority(f->tree, tt_find(f->tree, "c")), 32767);
	free(path);
}

static void test_sort_bad(void **state)
{
	struct fixture *f = *state;
	char *path = tt_write(f->dir, "sort", "a 1\nb 32768\n", (size_t)-1);
	char want[256];

	assert_int_equal(ff_tree_load_sort(f->tree, path, &f->err), -1);
	snprintf(want, sizeof(want), "%s:2: priority \"32768\" is not in -32768..32767", path);
	assert_string_equal(f->err.msg, want);
	free(path);
	path = tt_write(f->dir, "sort", "a 1 2\n", (size_t)-1);
	assert_int_equal(ff_tree_load_sort(f->tree, path, &f->err), -1);
	assert_non_null(strstr(f->err.msg, ":1: expected PATH PRIORITY"));
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokenize),
		cmocka_unit_test_setup_teardown(test_spec_good, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spec_override, setup, teardown),
		cmocka_unit_test(test_spec_bad),
		cmocka_unit_test_setup_teardown(test_spec_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pseudo_good, setup, teardown),
		cmocka_unit_test(test_pseudo_bad),
		cmocka_unit_test_setup_teardown(test_pseudo_line_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_bad, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
