/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* tree/spool.c, tree/spool_read.c: regions written through the gathering
 * buffer read back byte for byte, in order, backwards, from two threads at
 * once and across the read windows' edges; a region with holes starts on
 * 4 KiB and its holes read as zeros; reads past the end are short; and a
 * reader that comes before the last flush still gets every byte. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tree/spool.h"

#define N_REGIONS 3000

/* Region i holds region_len(i) bytes of a pattern that depends on i; a
 * few are larger than the read windows or the gathering buffer. */
static size_t region_len(int i)
{
	if (i % 1000 == 7)
		return (size_t)(1u << 20) + 12345; /* past the 1 MiB buffer */
	if (i % 100 == 3)
		return 70000; /* past a quarter of a window: read straight */
	return (size_t)(i * 37) % 900;
}

static uint8_t region_byte(int i, size_t off)
{
	return (uint8_t)(i * 131 + off * 7 + off / 4096);
}

struct fixture {
	struct ff_spool *sp;
	uint64_t off[N_REGIONS];
};

static void fill(struct fixture *f, int end)
{
	struct ff_err err = { 0 };
	uint8_t *buf = malloc((1u << 20) + 20000);

	assert_non_null(buf);
	f->sp = ff_spool_new(&err);
	assert_non_null(f->sp);
	for (int i = 0; i < N_REGIONS; i++) {
		size_t len = region_len(i);

		for (size_t k = 0; k < len; k++)
			buf[k] = region_byte(i, k);
		assert_int_equal(ff_spool_region(f->sp, len, 0, &f->off[i], &err), 0);
		/* in two writes, as the tar reader's 64 KiB copies come */
		assert_int_equal(ff_spool_write(f->sp, buf, len / 2, f->off[i], &err), 0);
		assert_int_equal(ff_spool_write(f->sp, buf + len / 2, len - len / 2,
						f->off[i] + len / 2, &err),
				 0);
	}
	free(buf);
	if (end)
		assert_int_equal(ff_spool_end_writes(f->sp, &err), 0);
}

static void check_region(struct ff_spool *sp, const struct fixture *f, int i, uint8_t *buf)
{
	struct ff_err err = { 0 };
	size_t len = region_len(i);

	assert_int_equal(ff_spool_read(sp, buf, len, f->off[i], &err), (ssize_t)len);
	for (size_t k = 0; k < len; k++)
		if (buf[k] != region_byte(i, k))
			fail_msg("region %d byte %zu: %u, not %u", i, k, buf[k], region_byte(i, k));
}

static void packed_in_order_and_back(void **state)
{
	static struct fixture f;
	uint8_t *buf = malloc((1u << 20) + 20000);

	(void)state;
	fill(&f, 1);
	/* packed: small regions follow each other without padding */
	assert_int_equal(f.off[2], f.off[1] + region_len(1));
	for (int i = 0; i < N_REGIONS; i++)
		check_region(f.sp, &f, i, buf);
	for (int i = N_REGIONS - 1; i >= 0; i -= 3)
		check_region(f.sp, &f, i, buf);
	/* an old region between two new ones (a duplicate compared) */
	for (int i = 100; i < 400; i++) {
		check_region(f.sp, &f, i, buf);
		check_region(f.sp, &f, i / 7, buf);
	}
	ff_spool_free(f.sp);
	free(buf);
}

static void *reader(void *arg)
{
	const struct fixture *f = arg;
	uint8_t *buf = malloc((1u << 20) + 20000);

	for (int i = 0; i < N_REGIONS; i++)
		check_region(f->sp, f, i, buf);
	free(buf);
	return NULL;
}

static void two_threads(void **state)
{
	static struct fixture f;
	pthread_t t[2];

	(void)state;
	fill(&f, 1);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reader, &f), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	ff_spool_free(f.sp);
}

/* ff_spool_end_writes not called: the first read flushes. */
static void read_before_the_last_flush(void **state)
{
	static struct fixture f;
	uint8_t *buf = malloc((1u << 20) + 20000);

	(void)state;
	fill(&f, 0);
	check_region(f.sp, &f, N_REGIONS - 1, buf);
	check_region(f.sp, &f, 0, buf);
	ff_spool_free(f.sp);
	free(buf);
}

static void holes_and_the_end(void **state)
{
	struct ff_err err = { 0 };
	struct ff_spool *sp = ff_spool_new(&err);
	uint64_t a, b, c;
	uint8_t buf[12288], zero[12288] = { 0 };

	(void)state;
	assert_non_null(sp);
	assert_int_equal(ff_spool_region(sp, 100, 0, &a, &err), 0);
	assert_int_equal(ff_spool_write(sp, "0123456789", 10, a, &err), 0);
	/* with holes: on the next 4 KiB, the file extended over it */
	assert_int_equal(ff_spool_region(sp, 12288, 1, &b, &err), 0);
	assert_int_equal(b, 4096);
	assert_int_equal(ff_spool_write(sp, "hole", 4, b + 4096, &err), 0);
	assert_int_equal(ff_spool_region(sp, 10, 0, &c, &err), 0);
	assert_int_equal(c, b + 12288);
	assert_int_equal(ff_spool_end_writes(sp, &err), 0);
	assert_int_equal(ff_spool_read(sp, buf, 10, a, &err), 10);
	assert_memory_equal(buf, "0123456789", 10);
	assert_int_equal(ff_spool_read(sp, buf, sizeof(buf), b, &err), (ssize_t)sizeof(buf));
	assert_memory_equal(buf, zero, 4096);
	assert_memory_equal(buf + 4096, "hole", 4);
	assert_memory_equal(buf + 4100, zero, sizeof(buf) - 4100);
	/* c was reserved but never written: the file ends before it */
	assert_int_equal(ff_spool_read(sp, buf, 10, c, &err), 0);
	assert_int_equal(ff_spool_read(sp, buf, 10, b + 12284, &err), 4);
	ff_spool_free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(packed_in_order_and_back),
		cmocka_unit_test(two_threads),
		cmocka_unit_test(read_before_the_last_flush),
		cmocka_unit_test(holes_and_the_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
