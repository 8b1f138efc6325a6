/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The Linux raw NAND layer's software Hamming ECC: 3 bytes per 256 data
 * bytes, which corrects one flipped bit in each 256 (and notices two).
 * Written from the algorithm's description (no Debian library provides
 * it).  Builders fill the codes (a YAFFS2 image's --data-ecc); readers of
 * raw dumps (a chip read without ECC, `nanddump --noecc`) correct the bit
 * flips the chip's own ECC would have corrected, and name the rest. */
#ifndef FF_COMMON_NAND_ECC_H
#define FF_COMMON_NAND_ECC_H

#include <stddef.h>
#include <stdint.h>

#define FF_NAND_HAMMING_STEP 256
#define FF_NAND_HAMMING_BYTES 3
/* The most code bytes a page has (16 KiB pages: 64 steps). */
#define FF_NAND_HAMMING_MAX_POS 192

/* The code of 256 bytes, in the kernel's default (not SmartMedia) byte
 * order; all-0xff data gives an all-0xff code, as on an erased page. */
void ff_nand_hamming256(const uint8_t *data, uint8_t code[3]);

/* Checks data (256 bytes) against the code stored beside it and repairs
 * one flipped data bit.  Returns 0 when they agree, 1 when one bit was
 * flipped (in the data, now repaired, or in the stored code itself), -1
 * when more bits were (the data is left as it is). */
int ff_nand_hamming256_correct(uint8_t *data, const uint8_t stored[3]);

/* Where the kernel keeps a page's Hamming codes in its OOB by default
 * (rawnand's large-page Hamming layout for 64- and 128-byte OOB, the
 * codes at the end of the OOB for other large pages, the small-page
 * layout for 512-byte pages): pos[] gets the OOB offset of each code byte
 * in step order.  Returns the count, 0 when the geometry has no room. */
size_t ff_nand_hamming_positions(uint32_t page_size, uint32_t oob_size,
				 uint16_t pos[FF_NAND_HAMMING_MAX_POS]);

/* One raw page (page_size data bytes, then its OOB) checked and repaired
 * step by step with the codes at pos[n] (from ff_nand_hamming_positions).
 * Returns the flipped bits corrected (data and codes) and adds the steps
 * that could not be repaired to *failed. */
unsigned ff_nand_hamming_page(uint8_t *raw, uint32_t page_size, const uint16_t *pos, size_t n,
			      unsigned *failed);

#endif
