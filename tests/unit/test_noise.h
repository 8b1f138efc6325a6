/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Reproducible noise for the unit tests: the same bytes for a seed on
 * every machine (a linear congruential generator, its high bits), so a
 * failure repeats. */
#ifndef FF_TESTS_UNIT_TEST_NOISE_H
#define FF_TESTS_UNIT_TEST_NOISE_H

#include <stddef.h>
#include <stdint.h>

/* The next state of the generator. */
static inline uint32_t test_noise_next(uint32_t s)
{
	return s * 1103515245u + 12345u;
}

static inline void test_noise(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = test_noise_next(seed);
		p[i] = (uint8_t)(seed >> 16);
	}
}

#endif
