/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The adaptive polling budget of the FUSE receiving loop (spin=): it
 * shrinks while spins run out, grows back while requests are caught, and
 * never passes the spin= ceiling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "fuse/spin_loop.h"

static void test_runs_out_halves(void **state)
{
	unsigned b = 200;

	(void)state;
	b = ff_fuse_spin_next(b, 200, 0);
	assert_int_equal(b, 100);
	for (int i = 0; i < 10; i++)
		b = ff_fuse_spin_next(b, 200, 0);
	assert_int_equal(b, 0);
	assert_int_equal(ff_fuse_spin_next(0, 200, 0), 0);
}

static void test_caught_grows_back_to_the_ceiling(void **state)
{
	unsigned b = 0, steps = 0;

	(void)state;
	while (b < 200 && steps < 100) {
		unsigned next = ff_fuse_spin_next(b, 200, 1);

		assert_true(next > b);
		b = next;
		steps++;
	}
	assert_int_equal(b, 200);
	/* from nothing to the full budget within a handful of catches */
	assert_in_range(steps, 2, 8);
	assert_int_equal(ff_fuse_spin_next(200, 200, 1), 200);
}

static void test_ceiling_zero_never_spins(void **state)
{
	(void)state;
	assert_int_equal(ff_fuse_spin_next(0, 0, 1), 0);
	assert_int_equal(ff_fuse_spin_next(0, 0, 0), 0);
}

static void test_large_ceiling(void **state)
{
	(void)state;
	assert_int_equal(ff_fuse_spin_next(1000000, 1000000, 1), 1000000);
	assert_int_equal(ff_fuse_spin_next(600000, 1000000, 1), 1000000);
	assert_int_equal(ff_fuse_spin_next(1000, 1000000, 1), 2008);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_out_halves),
		cmocka_unit_test(test_caught_grows_back_to_the_ceiling),
		cmocka_unit_test(test_ceiling_zero_never_spins),
		cmocka_unit_test(test_large_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
