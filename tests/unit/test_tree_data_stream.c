/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* tree/data_stream.c: file contents read ahead on a thread arrive in tree
 * order, piece by piece, byte for byte; a read error arrives at the file
 * it belongs to; stopping part-way neither hangs nor leaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tree/data_stream.h"
#include "tree_test_util.h"

#define PIECE 4096
#define N_FILES 700 /* more than fit in the stream's slots at once */

static int regular(const struct ff_node *n)
{
	return S_ISREG(n->mode) && !ff_node_link(n);
}

/* File i holds (i * 37) % 9000 bytes of a pattern that depends on i. */
static size_t file_len(int i)
{
	return (size_t)(i * 37) % 9000;
}

static uint8_t file_byte(int i, size_t off)
{
	return (uint8_t)(i * 131 + off * 7 + off / 4096);
}

static char *make_files(int big)
{
	char *dir = tt_mkdtemp(), name[32];
	static uint8_t buf[200000];

	for (int i = 0; i < N_FILES; i++) {
		size_t len = i == 5 && big ? sizeof(buf) : file_len(i);

		for (size_t k = 0; k < len; k++)
			buf[k] = file_byte(i, k);
		snprintf(name, sizeof(name), "f%04d", i);
		free(tt_write(dir, name, buf, len));
	}
	return dir;
}

static struct ff_tree *scan(const char *dir)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = { 0 };
	struct ff_tree *t = ff_tree_new(&o, &err);

	assert_int_equal(ff_tree_add_dir(t, dir, &err), 0);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	return t;
}

/* Consumes node n's pieces and checks them against the pattern of file i. */
static void check_file(struct ff_data_stream *s, const struct ff_node *n, int i)
{
	struct ff_err err = { 0 };
	struct ff_data_piece p;

	for (uint64_t off = 0; off < n->size; off += p.len) {
		assert_int_equal(ff_data_stream_next(s, n, &p, &err), 0);
		assert_ptr_equal(p.node, n);
		assert_int_equal(p.off, off);
		assert_true(p.len == PIECE || off + p.len == n->size);
		for (size_t k = 0; k < p.len; k++)
			assert_int_equal(p.buf[k], file_byte(i, off + k));
	}
}

static void test_order_and_content(void **state)
{
	char *dir = make_files(1);
	struct ff_tree *t = scan(dir);
	struct ff_err err = { 0 };
	struct ff_data_stream *s = ff_data_stream_new(t, regular, PIECE, &err);
	struct ff_data_piece p;
	int seen = 0;

	(void)state;
	assert_non_null(s);
	for (struct ff_node *n = ff_tree_root(t); n; n = ff_tree_next(t, n))
		if (regular(n)) {
			check_file(s, n, atoi(ff_node_name(n) + 1));
			seen++;
		}
	assert_int_equal(seen, N_FILES);
	/* nothing is left: asking again is a walk mismatch, not a hang */
	assert_int_equal(ff_data_stream_next(s, ff_tree_root(t), &p, &err), -1);
	assert_non_null(strstr(err.msg, "out of step"));
	ff_data_stream_free(s);
	ff_tree_free(t);
	tt_rmrf(dir);
	free(dir);
}

static void test_vanished_file(void **state)
{
	char *dir = make_files(0), path[4200];
	struct ff_tree *t = scan(dir);
	struct ff_err err = { 0 };
	struct ff_data_stream *s;
	struct ff_data_piece p;
	int i = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/f0400", dir);
	assert_int_equal(unlink(path), 0);
	s = ff_data_stream_new(t, regular, PIECE, &err);
	assert_non_null(s);
	for (struct ff_node *n = ff_tree_root(t); n; n = ff_tree_next(t, n)) {
		if (!regular(n) || !n->size)
			continue;
		i = atoi(ff_node_name(n) + 1);
		if (i == 400)
			break;
		check_file(s, n, i);
	}
	assert_int_equal(i, 400);
	assert_int_equal(ff_data_stream_next(s, tt_find(t, "f0400"), &p, &err), -1);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "cannot open"));
	ff_data_stream_free(s);
	ff_tree_free(t);
	tt_rmrf(dir);
	free(dir);
}

/* The builder fails on its own part-way (a full disk, say): freeing the
 * stream stops the helper, which is blocked on full slots by then. */
static void test_stop_early(void **state)
{
	char *dir = make_files(1);
	struct ff_tree *t = scan(dir);
	struct ff_err err = { 0 };
	struct ff_data_stream *s = ff_data_stream_new(t, regular, PIECE, &err);
	struct ff_data_piece p;

	(void)state;
	assert_non_null(s);
	assert_int_equal(ff_data_stream_next(s, tt_find(t, "f0001"), &p, &err), 0);
	usleep(50000);
	ff_data_stream_free(s);
	/* and a stream freed before its first piece */
	ff_data_stream_free(ff_data_stream_new(t, regular, PIECE, &err));
	ff_tree_free(t);
	tt_rmrf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_content),
		cmocka_unit_test(test_vanished_file),
		cmocka_unit_test(test_stop_early),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
