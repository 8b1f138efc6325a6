/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The two ECCs YAFFS2 images use, written from their documented algorithms
 * (no Debian library provides them):
 *  - the YAFFS "other" ECC over the 16 packed-tags bytes (column parity plus
 *    line parity of byte indices), which corrects one flipped bit;
 *  - the Linux software Hamming ECC over data pages (--data-ecc), which is
 *    common/nand_ecc.h's: raw dumps of other formats need it too. */
#ifndef FF_YAFFS2_ECC_H
#define FF_YAFFS2_ECC_H

#include <stddef.h>
#include <stdint.h>

struct ff_y2_ecc_other {
	uint8_t col_parity;  /* 6 bits */
	uint32_t line_parity;
	uint32_t line_parity_prime;
};

void ff_y2_ecc_calc_other(const uint8_t *data, size_t n, struct ff_y2_ecc_other *ecc);

/* Compare the stored ECC with a freshly computed one and repair data.
 * Returns 0 no error, 1 corrected (one bit in data or in the ECC itself),
 * -1 uncorrectable. */
int ff_y2_ecc_correct_other(uint8_t *data, size_t n, struct ff_y2_ecc_other *stored,
			    const struct ff_y2_ecc_other *computed);

#endif
