/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tar source on hand-built archives: every member kind, GNU base-256
 * numbers, PAX overrides and sparse maps, and clean errors (naming the
 * archive, the member or header offset, and the problem) on damaged input.
 * Archives made by GNU tar itself are covered by tests/integration/tree_tar.t. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/vec.h"
#include "tar/tar.h"
#include "tree/tree_priv.h"
#include "tree_test_util.h"

/* The archive's bytes.  A vector, so it grows geometrically: grown by
 * exactly each header, the 6,000-member archive was 12,000 reallocs of up
 * to 6 MB, 13 minutes under ASan (which copies on every realloc). */
struct archive {
	struct ff_vec v;  /* of bytes; set up on first use ({ 0 } is empty) */
};

static uint8_t *grow(struct archive *a, size_t n)
{
	uint8_t *p;

	if (!a->v.elem)
		ff_vec_init(&a->v, 1);
	assert_int_equal(ff_vec_reserve(&a->v, a->v.len + n), 0);
	p = FF_VEC_AT(&a->v, uint8_t, a->v.len);
	memset(p, 0, n);
	a->v.len += n;
	return p;
}

static void octal(uint8_t *f, size_t len, uint64_t v)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "%0*llo", (int)len - 1, (unsigned long long)v);
	memcpy(f, tmp, len - 1);
}

static void seal(uint8_t *h)
{
	unsigned sum = 0;

	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

static uint8_t *header(struct archive *a, const char *name, char type, uint64_t size,
		       const char *link)
{
	uint8_t *h = grow(a, 512);

	memcpy(h, name, strlen(name) < 100 ? strlen(name) : 100);
	octal(h + 100, 8, 0644);
	octal(h + 108, 8, 1000);
	octal(h + 116, 8, 100);
	octal(h + 124, 12, size);
	octal(h + 136, 12, 1234567890);
	h[156] = (uint8_t)type;
	if (link)
		memcpy(h + 157, link, strlen(link));
	memcpy(h + 257, "ustar\0" "00", 8);
	seal(h);
	return h;
}

static void data(struct archive *a, const void *p, size_t n)
{
	memcpy(grow(a, (n + 511) / 512 * 512), p, n);
}

/* Appends one "LEN key=value\n" record, LEN counting its own digits. */
static size_t digits(size_t n)
{
	return n < 10 ? 1 : 1 + digits(n / 10);
}

static void rec(char *out, const char *kv)
{
	size_t body = strlen(kv) + 2, len = body + 1;

	while (len != body + digits(len))
		len = body + digits(len);
	sprintf(out + strlen(out), "%zu %s\n", len, kv);
}

static void pax(struct archive *a, const char *records)
{
	header(a, "PaxHeader", 'x', strlen(records), NULL);
	data(a, records, strlen(records));
}

static void end(struct archive *a)
{
	grow(a, 1024);
}

struct fixture {
	char *dir;
	char *path;
	struct ff_tree *tree;
	struct ff_err err;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ff_tree_opts o = tt_opts();

	f->dir = tt_mkdtemp();
	f->tree = ff_tree_new(&o, &f->err);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ff_tree_free(f->tree);
	tt_rmrf(f->dir);
	free(f->dir);
	free(f->path);
	free(f);
	return 0;
}

static int load(struct fixture *f, struct archive *a)
{
	int rc;

	free(f->path);
	f->path = tt_write(f->dir, "t.tar", a->v.data, a->v.len);
	ff_vec_free(&a->v);
	rc = ff_tree_add_tar(f->tree, f->path, &f->err);
	if (rc == 0)
		rc = ff_tree_finish(f->tree, &f->err);
	return rc;
}

static void load_ok(struct fixture *f, struct archive *a)
{
	if (load(f, a))
		fail_msg("%s", f->err.msg);
}

static void read_all(struct fixture *f, struct ff_node *n, char *buf, size_t len)
{
	struct ff_data *d = ff_tree_open_data(f->tree, n, &f->err);

	assert_non_null(d);
	assert_int_equal(ff_data_pread(d, buf, len, 0, &f->err), (ssize_t)len);
	ff_data_close(d);
}

static void test_numbers(void **state)
{
	uint8_t f[12];
	int64_t v;

	(void)state;
	memcpy(f, "  0000755 \0\0", 12);
	assert_int_equal(tar_parse_number(f, 12, &v), 0);
	assert_int_equal(v, 0755);
	memset(f, 0, 12);
	f[0] = 0x80;
	f[8] = 0x12;
	f[11] = 0x34;
	assert_int_equal(tar_parse_number(f, 12, &v), 0);
	assert_int_equal(v, 0x12000034ll);
	memset(f, 0xff, 12);
	assert_int_equal(tar_parse_number(f, 12, &v), 0);
	assert_int_equal(v, -1);
	memcpy(f, "0000x755\0\0\0\0", 12);
	assert_int_equal(tar_parse_number(f, 12, &v), -1);
}

static void test_members(void **state)
{
	struct fixture *f = *state;
	struct archive a = { 0 };
	struct ff_node *n;
	uint8_t *h;
	char buf[8];

	header(&a, "./", '5', 0, NULL);
	header(&a, "d/", '5', 0, NULL);
	header(&a, "d/file", '0', 5, NULL);
	data(&a, "hello", 5);
	header(&a, "d/sym", '2', 0, "file");
	header(&a, "d/hard", '1', 0, "./d/file");
	h = header(&a, "/dev/console", '3', 0, NULL);
	octal(h + 329, 8, 5);
	octal(h + 337, 8, 1);
	seal(h);
	header(&a, "fifo", '6', 0, NULL);
	h = header(&a, "big", '0', 0, NULL);
	memset(h + 108, 0, 8);
	h[108] = 0x80;
	h[112] = 0xb2;
	h[113] = 0xd0;
	h[114] = 0x5e;
	seal(h);
	header(&a, "dup", '0', 3, NULL);
	data(&a, "old", 3);
	header(&a, "dup", '2', 0, "new");
	end(&a);
	load_ok(f, &a);
	assert_int_equal(ff_tree_count(f->tree), 10);
	n = ff_tree_root(f->tree);
	assert_int_equal(n->uid, 1000);
	assert_int_equal(n->mtime, 1234567890);
	n = tt_find(f->tree, "d/file");
	assert_int_equal(n->size, 5);
	assert_int_equal(n->mode, S_IFREG | 0644);
	assert_int_equal(ff_node_nlink(n), 2);
	read_all(f, n, buf, 5);
	assert_memory_equal(buf, "hello", 5);
	assert_ptr_equal(ff_node_link(tt_find(f->tree, "d/hard")), n);
	assert_string_equal(tt_find(f->tree, "d/sym")->target, "file");
	n = tt_find(f->tree, "dev/console");
	assert_true(S_ISCHR(n->mode));
	assert_int_equal(n->rdev_major, 5);
	assert_int_equal(tt_find(f->tree, "dev")->mode, S_IFDIR | 0755);
	assert_true(S_ISFIFO(tt_find(f->tree, "fifo")->mode));
	assert_int_equal(tt_find(f->tree, "big")->uid, 3000000000u);
	assert_string_equal(tt_find(f->tree, "dup")->target, "new");
}

/* The (parent, name) set over thousands of members (it grows several
 * times): the same name in different directories is a different entry; a
 * later member of a path replaces the earlier one however far back it
 * was; a member whose parent was never listed gets an implied directory,
 * which a later member of that directory describes, children kept. */
static void test_many_members(void **state)
{
	struct fixture *f = *state;
	struct archive a = { 0 };
	struct ff_node *n;
	char name[64];
	uint8_t *h;

	for (int d = 0; d < 4; d++) {
		snprintf(name, sizeof(name), "d%d/", d);
		header(&a, name, '5', 0, NULL);
		for (int i = 0; i < 1500; i++) {
			snprintf(name, sizeof(name), "d%d/f%d", d, i);
			header(&a, name, '0', 1, NULL);
			data(&a, d % 2 ? "o" : "e", 1);
		}
	}
	header(&a, "late/x/y", '0', 0, NULL);   /* parents never listed */
	header(&a, "d0/f7", '2', 0, "again");   /* replaces an early member */
	h = header(&a, "late/", '5', 0, NULL);  /* describes the implied dir */
	octal(h + 100, 8, 0700);
	seal(h);
	header(&a, "./d3/f1499", '0', 0, NULL);
	end(&a);
	load_ok(f, &a);
	/* root, 4 dirs, 6000 files, late, late/x, late/x/y */
	assert_int_equal(ff_tree_count(f->tree), 1 + 4 + 6000 + 3);
	assert_int_equal(tt_find(f->tree, "d0")->n_children, 1500);
	assert_int_equal(tt_find(f->tree, "d1/f1")->size, 1);
	assert_ptr_not_equal(tt_find(f->tree, "d1/f1"), tt_find(f->tree, "d2/f1"));
	assert_ptr_equal(tt_find(f->tree, "d1/f1")->parent, tt_find(f->tree, "d1"));
	n = tt_find(f->tree, "d0/f7");
	assert_true(S_ISLNK(n->mode));
	assert_string_equal(n->target, "again");
	assert_int_equal(tt_find(f->tree, "d3/f1499")->size, 0);
	assert_int_equal(tt_find(f->tree, "d3/f1498")->size, 1);
	n = tt_find(f->tree, "late");
	assert_int_equal(n->mode, S_IFDIR | 0700);
	assert_int_equal(n->n_children, 1);
	assert_int_equal(tt_find(f->tree, "late/x")->mode, S_IFDIR | 0755);
	assert_true(S_ISREG(tt_find(f->tree, "late/x/y")->mode));
}

static void test_pax(void **state)
{
	struct fixture *f = *state;
	struct archive a = { 0 };
	char longname[400], kv[420], recs[800] = "", buf[4];
	struct ff_node *n;

	memset(longname, 'L', 300);
	longname[150] = '/';
	longname[300] = '\0';
	snprintf(kv, sizeof(kv), "path=%s", longname);
	rec(recs, kv);
	rec(recs, "uid=4000000000");
	rec(recs, "mtime=1700000000.5");
	rec(recs, "SCHILY.xattr.user.x=ab");
	rec(recs, "size=100");
	pax(&a, recs);
	header(&a, "short", '0', 4, NULL); /* PAX size 100 wins over 4 */
	{
		char payload[100];

		memset(payload, 'p', sizeof(payload));
		data(&a, payload, sizeof(payload));
	}
	header(&a, "after", '0', 3, NULL);
	data(&a, "abc", 3);
	recs[0] = '\0';
	rec(recs, "mtime=-1.5");
	pax(&a, recs);
	header(&a, "neg", '0', 0, NULL);
	end(&a);
	load_ok(f, &a);
	n = tt_find(f->tree, longname);
	assert_non_null(n);
	assert_int_equal(n->uid, 4000000000u);
	assert_int_equal(n->mtime, 1700000000);
	assert_int_equal(n->size, 100);
	assert_string_equal(ff_node_xattrs(n)[0].name, "user.x");
	assert_memory_equal(ff_node_xattrs(n)[0].value, "ab", 2);
	n = tt_find(f->tree, "after");
	assert_non_null(n);
	assert_int_equal(n->uid, 1000); /* the PAX header applied to one member only */
	read_all(f, n, buf, 3);
	assert_memory_equal(buf, "abc", 3);
	assert_int_equal(tt_find(f->tree, "neg")->mtime, -2); /* rounded down */
}

static void test_sparse_pax01(void **state)
{
	struct fixture *f = *state;
	struct archive a = { 0 };
	char buf[10000];
	struct ff_node *n;
	char recs[200] = "";

	rec(recs, "GNU.sparse.size=10000");
	rec(recs, "GNU.sparse.map=0,2,5000,3,9998,2");
	rec(recs, "GNU.sparse.name=sparse");
	pax(&a, recs);
	header(&a, "GNUSparseFile.0/sparse", '0', 7, NULL);
	data(&a, "AABBBCC", 7);
	end(&a);
	load_ok(f, &a);
	n = tt_find(f->tree, "sparse");
	assert_non_null(n);
	assert_int_equal(n->size, 10000);
	read_all(f, n, buf, sizeof(buf));
	assert_memory_equal(buf, "AA\0\0", 4);
	assert_memory_equal(buf + 5000, "BBB\0", 4);
	assert_memory_equal(buf + 9996, "\0\0CC", 4);
}

/* Each damaged archive must fail with a message naming the problem. */
static void tar_fails(struct archive *a, const char *problem)
{
	struct fixture *f;

	setup((void **)&f);
	assert_int_equal(load(f, a), -1);
	if (!strstr(f->err.msg, f->path) || !strstr(f->err.msg, problem))
		fail_msg("got \"%s\", want \"...%s\"", f->err.msg, problem);
	teardown((void **)&f);
}

static void test_bad_archives(void **state)
{
	struct archive a = { 0 };
	char recs[200];
	uint8_t *h;

	(void)state;
	memcpy(grow(&a, 512), "this is not a tar archive", 25);
	tar_fails(&a, "header at offset 0: header checksum mismatch");

	header(&a, "f", '0', 1000, NULL);
	data(&a, "short", 5);
	tar_fails(&a, "unexpected end of archive at offset 1024");

	header(&a, "a/../../etc/passwd", '0', 0, NULL);
	end(&a);
	tar_fails(&a, "member \"a/../../etc/passwd\": path contains a \"..\" component");

	header(&a, "x", '1', 0, "nope");
	end(&a);
	tar_fails(&a, "hard link target \"nope\" does not exist");

	header(&a, "d", '5', 0, NULL);
	header(&a, "x", '1', 0, "d");
	end(&a);
	tar_fails(&a, "hard link to a directory");

	h = header(&a, "f", '0', 0, NULL);
	memcpy(h + 124, "12x45678901", 11);
	seal(h);
	end(&a);
	tar_fails(&a, "header field size is not a valid number");

	header(&a, "PaxHeader", 'x', 10, NULL);
	data(&a, "99 path=x\n", 10);
	header(&a, "f", '0', 0, NULL);
	end(&a);
	tar_fails(&a, "PAX header: malformed record");

	recs[0] = '\0';
	rec(recs, "GNU.sparse.size=10000");
	rec(recs, "GNU.sparse.map=9999,100");
	pax(&a, recs);
	header(&a, "s", '0', 100, NULL);
	data(&a, "x", 1);
	grow(&a, 512);
	end(&a);
	tar_fails(&a, "lies outside the file (size 10000)");

	recs[0] = '\0';
	rec(recs, "GNU.sparse.size=10000");
	rec(recs, "GNU.sparse.map=0,9000");
	pax(&a, recs);
	header(&a, "s", '0', 10, NULL);
	data(&a, "0123456789", 10);
	end(&a);
	tar_fails(&a, "chunks hold 9000 bytes but the member stores 10");

	header(&a, "f", '0', 0, NULL);
	header(&a, "f/x", '0', 0, NULL);
	end(&a);
	tar_fails(&a, "\"f\" is not a directory");

	header(&a, "./", '2', 0, "x");
	end(&a);
	tar_fails(&a, "the archive root must be a directory");

	header(&a, "v", 'M', 0, NULL);
	end(&a);
	tar_fails(&a, "not supported");
}

/* An archive that stops right after a member, without the two zero
 * blocks, is still accepted (GNU tar does the same). */
static void test_no_end_blocks(void **state)
{
	struct fixture *f = *state;
	struct archive a = { 0 };

	header(&a, "f", '0', 2, NULL);
	data(&a, "hi", 2);
	load_ok(f, &a);
	assert_int_equal(tt_find(f->tree, "f")->size, 2);
}

static void test_missing_file(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ff_tree_add_tar(f->tree, "/nonexistent.tar", &f->err), -1);
	assert_non_null(strstr(f->err.msg, "/nonexistent.tar: cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test_setup_teardown(test_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pax, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sparse_pax01, setup, teardown),
		cmocka_unit_test(test_bad_archives),
		cmocka_unit_test_setup_teardown(test_no_end_blocks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
