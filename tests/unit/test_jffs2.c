/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* jffs2/: the fragment map (frag.c) against a byte-by-byte model of "the
 * highest version wins, the first found between equals", on hand-picked
 * and random node sets; the rtime decoder on a hand-encoded stream; the
 * kernel's CRC convention on a header mkfs.jffs2 wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jffs2/decomp.h"
#include "jffs2/frag.h"
#include "jffs2/node.h"

#define SPAN 256

/* Which node owns each byte, by brute force (-1: a hole). */
static void model(const struct j2_frag_in *in, size_t n, int *own)
{
	for (int b = 0; b < SPAN; b++) {
		own[b] = -1;
		for (size_t i = 0; i < n; i++) {
			if (b < (int)in[i].ofs || b >= (int)(in[i].ofs + in[i].len))
				continue;
			if (own[b] < 0 || in[i].version > in[own[b]].version ||
			    (in[i].version == in[own[b]].version && in[i].seq < in[own[b]].seq))
				own[b] = (int)i;
		}
	}
}

static void compare(const struct j2_frag_in *in, size_t n)
{
	struct j2_frag *f;
	size_t nf;
	int own[SPAN];

	model(in, n, own);
	assert_int_equal(j2_frag_build(in, n, &f, &nf), 0);
	for (int b = 0; b < SPAN; b++) {
		size_t k = j2_frag_find(f, nf, (uint64_t)b);

		if (k == nf || f[k].start > (uint32_t)b) {
			assert_int_equal(own[b], -1);
			continue;
		}
		assert_int_equal((int)f[k].node, own[b]);
		assert_int_equal(f[k].node_ofs + (b - f[k].start), b - (int)in[own[b]].ofs);
	}
	for (size_t k = 0; k + 1 < nf; k++)
		assert_true(f[k].end <= f[k + 1].start);
	free(f);
}

static void overlaps(void **state)
{
	/* node = index, as the reader passes it */
	const struct j2_frag_in in[] = {
		{ 0, 100, 1, 0, 0 },   { 50, 100, 2, 1, 1 }, { 60, 10, 1, 2, 2 },
		{ 120, 10, 5, 3, 3 },  { 200, 20, 3, 4, 4 }, { 200, 20, 3, 5, 5 },
		{ 210, 40, 2, 6, 6 },
	};

	(void)state;
	compare(in, sizeof(in) / sizeof(in[0]));
}

static void random_sets(void **state)
{
	struct j2_frag_in in[40];

	(void)state;
	srand(7);
	for (int round = 0; round < 300; round++) {
		size_t n = 1 + (size_t)(rand() % 40);

		for (size_t i = 0; i < n; i++) {
			uint32_t ofs = (uint32_t)(rand() % SPAN);

			in[i] = (struct j2_frag_in){ ofs, 1 + (uint32_t)(rand() % (SPAN - ofs)),
						     (uint32_t)(rand() % 8), (uint32_t)i, (uint32_t)i };
		}
		compare(in, n);
	}
}

static void truncation(void **state)
{
	const struct j2_frag_in in[] = { { 0, 100, 1, 0, 0 }, { 100, 100, 2, 1, 1 } };
	struct j2_frag *f;
	size_t nf;

	(void)state;
	assert_int_equal(j2_frag_build(in, 2, &f, &nf), 0);
	assert_int_equal(nf, 2);
	j2_frag_truncate(f, &nf, 150);
	assert_int_equal(nf, 2);
	assert_int_equal(f[1].end, 150);
	j2_frag_truncate(f, &nf, 100);
	assert_int_equal(nf, 1);
	assert_int_equal(f[0].end, 100);
	j2_frag_truncate(f, &nf, 0);
	assert_int_equal(nf, 0);
	free(f);
	assert_int_equal(j2_frag_build(in, 0, &f, &nf), 0);
	assert_null(f);
}

/* "abcabcabcX": a, b, c literal, then a with a run of 5 copying "bcabc"
 * from after the first a, then X. */
static void rtime(void **state)
{
	const uint8_t in[] = { 'a', 0, 'b', 0, 'c', 0, 'a', 5, 'X', 0 };
	uint8_t out[10];
	struct ff_err err = { 0, "" };

	(void)state;
	assert_int_equal(j2_rtime_decode(in, sizeof(in), out, sizeof(out), &err), 0);
	assert_memory_equal(out, "abcabcabcX", 10);
	/* a run past the output is refused, not written */
	assert_int_equal(j2_rtime_decode(in, sizeof(in), out, 8, &err), -1);
	/* input that ends early too */
	assert_int_equal(j2_rtime_decode(in, 3, out, sizeof(out), &err), -1);
}

/* A cleanmarker as mkfs.jffs2 -l writes it: 85 19 03 20 0c 00 00 00 then
 * its header CRC e41eb0b1. */
static void kernel_crc(void **state)
{
	const uint8_t cm[12] = { 0x85, 0x19, 0x03, 0x20, 0x0c, 0, 0, 0, 0xb1, 0xb0, 0x1e, 0xe4 };
	struct j2_hdr h;

	(void)state;
	assert_int_equal(j2_hdr_decode(cm, 0, &h), 1);
	assert_int_equal(h.type, J2_NT_CLEANMARKER);
	assert_int_equal(h.totlen, 12);
	assert_int_equal(j2_hdr_decode(cm, 1, &h), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overlaps),  cmocka_unit_test(random_sets),
		cmocka_unit_test(truncation), cmocka_unit_test(rtime),
		cmocka_unit_test(kernel_crc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
