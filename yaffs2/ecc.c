/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/ecc.h"

/* Column parities of one byte, in the bit order the YAFFS ECC stores them:
 * bit 0 the parity of bits 0,2,4,6; bit 1 of 1,3,5,7; bit 2 of 0,1,4,5;
 * bit 3 of 2,3,6,7; bit 4 of 0-3; bit 5 of 4-7. */
static uint8_t col_bits(uint8_t b)
{
	static const uint8_t masks[6] = { 0x55, 0xaa, 0x33, 0xcc, 0x0f, 0xf0 };
	uint8_t r = 0;

	for (int i = 0; i < 6; i++)
		r |= (uint8_t)(__builtin_parity(b & masks[i]) << i);
	return r;
}

/* Column parity is linear over XOR, so it is taken once over the XOR of
 * all bytes rather than per byte (this runs for every chunk written). */
void ff_y2_ecc_calc_other(const uint8_t *data, size_t n, struct ff_y2_ecc_other *ecc)
{
	uint8_t all = 0;
	uint32_t line = 0, line_prime = 0;

	for (size_t i = 0; i < n; i++) {
		all ^= data[i];
		if (__builtin_parity(data[i])) {
			line ^= (uint32_t)i;
			line_prime ^= ~(uint32_t)i;
		}
	}
	ecc->col_parity = col_bits(all) & 0x3f;
	ecc->line_parity = line;
	ecc->line_parity_prime = line_prime;
}

int ff_y2_ecc_correct_other(uint8_t *data, size_t n, struct ff_y2_ecc_other *stored,
			    const struct ff_y2_ecc_other *computed)
{
	uint8_t dcol = (stored->col_parity ^ computed->col_parity) & 0x3f;
	uint32_t dline = stored->line_parity ^ computed->line_parity;
	uint32_t dprime = stored->line_parity_prime ^ computed->line_parity_prime;

	if (!dcol && !dline && !dprime)
		return 0;
	/* One data bit flipped: every column parity pair and the line/prime
	 * pair disagree in exactly one member. */
	if (dline == ~dprime && ((dcol ^ (dcol >> 1)) & 0x15) == 0x15) {
		unsigned bit = ((dcol & 0x20) ? 4u : 0u) | ((dcol & 0x08) ? 2u : 0u) |
			       ((dcol & 0x02) ? 1u : 0u);

		if (dline >= n)
			return -1;
		data[dline] ^= (uint8_t)(1u << bit);
		return 1;
	}
	/* One bit flipped in the stored ECC itself. */
	if (__builtin_popcount(dline) + __builtin_popcount(dprime) + __builtin_popcount(dcol) ==
	    1) {
		*stored = *computed;
		return 1;
	}
	return -1;
}
