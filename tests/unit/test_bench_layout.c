/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The blocks the bench's codec harness times (layout.c): full blocks,
 * short tail blocks, fragment packing, duplicates and sparse blocks, cut
 * as a block-based file system cuts a tree (image sizes come from real
 * images: bench_sizes.t and bench_fs.t). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "bench/bench.h"

static void add_file(struct bench_corpus *c, const char *name, size_t size, int fill)
{
	struct bench_node n = { .parent = 0, .mode = S_IFREG | 0644, .file = -1, .link_of = -1 };
	struct ff_err e = { 0 };
	uint8_t *p;

	n.name = strdup(name);
	assert_int_equal(bench_corpus_push_node(c, &n, &e), 0);
	p = bench_corpus_reserve_file(c, (uint32_t)(c->n_nodes - 1), size, &e);
	assert_true(p != NULL || size == 0);
	for (size_t i = 0; i < size; i++)
		p[i] = fill < 0 ? (uint8_t)(i * 7 + size) : (uint8_t)fill;
}

static struct bench_corpus *corpus(void)
{
	struct ff_err e = { 0 };
	struct bench_corpus *c = bench_corpus_new(&e);

	assert_non_null(c);
	add_file(c, "empty", 0, -1);
	add_file(c, "small", 100, -1);
	add_file(c, "one", 4096, -1);
	add_file(c, "tail", 5000, -1);
	add_file(c, "two", 8202, -1);
	add_file(c, "zero", 8192, 0);
	add_file(c, "two-again", 8202, -1);   /* same bytes as "two" */
	assert_int_equal(bench_corpus_finish(c, &e), 0);
	return c;
}

static size_t count(const struct bench_layout *l, uint32_t kind)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n_blocks; i++)
		n += l->blocks[i].kind == kind;
	return n;
}

static void default_rules(void **state)
{
	struct bench_corpus *c = corpus();
	struct bench_layout_opts o = { .block_size = 4096 };
	struct bench_layout l;
	struct ff_err e = { 0 };

	(void)state;
	assert_int_equal(c->files[6].dup_of, 4);
	assert_int_equal(c->unique_bytes, 100 + 4096 + 5000 + 8202 + 8192);
	assert_int_equal(bench_layout_build(c, &o, 1, &l, &e), 0);
	/* one: 1 block; tail: 4096 + 904; two: 4096 + 4096 + 10; zero: 2 sparse;
	 * small goes into the only fragment block */
	assert_int_equal(count(&l, BENCH_BLOCK_DATA), 6);
	assert_int_equal(count(&l, BENCH_BLOCK_ZERO), 2);
	assert_int_equal(count(&l, BENCH_BLOCK_FRAG), 1);
	assert_int_equal(l.n_frag_blocks, 1);
	assert_int_equal(l.bytes, 100 + 4096 + 5000 + 8202 + 8192);
	bench_layout_free(&l);

	o.no_sparse = 1;
	o.no_dedup = 1;
	assert_int_equal(bench_layout_build(c, &o, 1, &l, &e), 0);
	assert_int_equal(count(&l, BENCH_BLOCK_ZERO), 0);
	assert_int_equal(count(&l, BENCH_BLOCK_DATA), 6 + 2 + 3);
	bench_layout_free(&l);
	bench_corpus_free(c);
}

static void fragment_rules(void **state)
{
	struct bench_corpus *c = corpus();
	struct bench_layout_opts o = { .block_size = 4096, .always_fragments = 1 };
	struct bench_layout l;
	struct ff_err e = { 0 };

	(void)state;
	assert_int_equal(bench_layout_build(c, &o, 1, &l, &e), 0);
	/* tails 100 + 904 + 10 share one fragment block */
	assert_int_equal(l.n_frag_blocks, 1);
	for (size_t i = 0; i < l.n_blocks; i++)
		if (l.blocks[i].kind == BENCH_BLOCK_FRAG)
			assert_int_equal(l.blocks[i].len, 1014);
	assert_int_equal(count(&l, BENCH_BLOCK_DATA), 1 + 1 + 2);
	bench_layout_free(&l);

	o.always_fragments = 0;
	o.no_fragments = 1;
	assert_int_equal(bench_layout_build(c, &o, 1, &l, &e), 0);
	assert_int_equal(l.n_frag_blocks, 0);
	assert_int_equal(count(&l, BENCH_BLOCK_DATA), 7);
	bench_layout_free(&l);

	o.no_fragments = 0;
	o.block_size = 3000;   /* not a power of two */
	assert_int_equal(bench_layout_build(c, &o, 1, &l, &e), -1);
	assert_non_null(strstr(e.msg, "3000"));
	bench_corpus_free(c);
}

static void fragment_overflow(void **state)
{
	struct ff_err e = { 0 };
	struct bench_corpus *c = bench_corpus_new(&e);
	struct bench_layout_opts o = { .block_size = 4096 };
	struct bench_layout l;

	(void)state;
	add_file(c, "a", 3000, 1);
	add_file(c, "b", 3000, 2);
	add_file(c, "c", 1000, 3);
	assert_int_equal(bench_corpus_finish(c, &e), 0);
	assert_int_equal(bench_layout_build(c, &o, 1, &l, &e), 0);
	/* b does not fit after a: a new block, which c then joins */
	assert_int_equal(l.n_frag_blocks, 2);
	assert_int_equal(l.blocks[0].len, 3000);
	assert_int_equal(l.blocks[1].len, 4000);
	assert_int_equal(l.blocks[1].p[0], 2);
	assert_int_equal(l.blocks[1].p[3999], 3);
	bench_layout_free(&l);
	bench_corpus_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_rules),
		cmocka_unit_test(fragment_rules),
		cmocka_unit_test(fragment_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
