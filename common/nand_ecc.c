/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/nand_ecc.h"

/* Row parity rp(2k) covers bytes whose index has bit k clear, rp(2k+1)
 * those with it set; the code stores inverted parities, so an erased
 * (all 0xff) block has an all-0xff code.  Only the parities of the rp
 * bytes are stored, so each is derived from `odd` (the XOR of the indices
 * of odd-parity bytes: its bit k is the parity of rp(2k+1)) and the parity
 * of the whole block, instead of XORing every byte into eight rp bytes. */
static unsigned rp_parity(unsigned r, uint32_t odd, unsigned total)
{
	unsigned set = (odd >> (r / 2)) & 1;

	return r % 2 ? set : set ^ total;
}

void ff_nand_hamming256(const uint8_t *data, uint8_t code[3])
{
	uint8_t par = 0;
	uint32_t odd = 0;
	uint16_t lo = 0, hi = 0;
	unsigned total;

	for (unsigned i = 0; i < FF_NAND_HAMMING_STEP; i++) {
		par ^= data[i];
		if (__builtin_parity(data[i]))
			odd ^= i;
	}
	total = (unsigned)__builtin_parity(par);
	for (unsigned k = 0; k < 8; k++) {
		lo |= (uint16_t)(!rp_parity(k, odd, total) << k);
		hi |= (uint16_t)(!rp_parity(k + 8, odd, total) << k);
	}
	/* code[2]: the column parities cp5..cp0 (bits 7..2) of the XOR of
	 * all bytes; cp(2j+1) covers the bit positions with bit j set */
	code[0] = (uint8_t)hi;
	code[1] = (uint8_t)lo;
	code[2] = (uint8_t)((!__builtin_parity(par & 0xf0) << 7) |
			    (!__builtin_parity(par & 0x0f) << 6) |
			    (!__builtin_parity(par & 0xcc) << 5) |
			    (!__builtin_parity(par & 0x33) << 4) |
			    (!__builtin_parity(par & 0xaa) << 3) |
			    (!__builtin_parity(par & 0x55) << 2) | 3);
}

/* 1 when each pair of parities (bits 2j, 2j+1 of x, the pairs in mask)
 * differs in exactly one bit: what one flipped data bit does. */
static int one_of_each_pair(unsigned x, unsigned mask)
{
	return ((x ^ (x >> 1)) & mask) == mask;
}

/* The odd bits of x (the rp(2k+1) / cp(2j+1) parities), packed: they are
 * the flipped bit's address. */
static unsigned odd_bits(unsigned x, unsigned n)
{
	unsigned v = 0;

	for (unsigned k = 0; k < n; k++)
		v |= ((x >> (2 * k + 1)) & 1u) << k;
	return v;
}

int ff_nand_hamming256_correct(uint8_t *data, const uint8_t stored[3])
{
	uint8_t c[3];
	unsigned hi, lo, col;

	ff_nand_hamming256(data, c);
	hi = (unsigned)(stored[0] ^ c[0]);
	lo = (unsigned)(stored[1] ^ c[1]);
	col = (unsigned)(stored[2] ^ c[2]) >> 2;
	if (!(hi | lo | col))
		return 0;
	if (one_of_each_pair(hi, 0x55) && one_of_each_pair(lo, 0x55) &&
	    one_of_each_pair(col, 0x15)) {
		unsigned byte = odd_bits(lo, 4) | odd_bits(hi, 4) << 4;

		data[byte] ^= (uint8_t)(1u << odd_bits(col, 3));
		return 1;
	}
	/* one bit of the code itself */
	if (__builtin_popcount(hi) + __builtin_popcount(lo) + __builtin_popcount(col) == 1)
		return 1;
	return -1;
}

static size_t run(uint16_t *pos, size_t n, unsigned from, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		pos[n++] = (uint16_t)(from + i);
	return n;
}

size_t ff_nand_hamming_positions(uint32_t page_size, uint32_t oob_size,
				 uint16_t pos[FF_NAND_HAMMING_MAX_POS])
{
	uint32_t total = page_size / FF_NAND_HAMMING_STEP * FF_NAND_HAMMING_BYTES;

	if (!total || page_size % FF_NAND_HAMMING_STEP || total > FF_NAND_HAMMING_MAX_POS)
		return 0;
	/* small pages: bytes 0-3 and 6-7 of 16 (512-byte pages), 0-2 of 8 */
	if (page_size == 512 && oob_size == 16)
		return run(pos, run(pos, 0, 0, 4), 6, 2);
	if (page_size == 256 && oob_size == 8)
		return run(pos, 0, 0, 3);
	if (oob_size <= 16)
		return 0;
	/* large pages: the Hamming layout of 64- and 128-byte OOBs, else the
	 * codes at the end (the first two bytes are the bad-block marker's) */
	if ((oob_size == 64 || oob_size == 128) && oob_size / 8 * 5 + total <= oob_size)
		return run(pos, 0, oob_size / 8 * 5, total);
	if (total + 2 > oob_size)
		return 0;
	return run(pos, 0, oob_size - total, total);
}

unsigned ff_nand_hamming_page(uint8_t *raw, uint32_t page_size, const uint16_t *pos, size_t n,
			      unsigned *failed)
{
	const uint8_t *oob = raw + page_size;
	unsigned fixed = 0;

	for (size_t s = 0; (s + 1) * FF_NAND_HAMMING_BYTES <= n; s++) {
		const uint16_t *p = pos + s * FF_NAND_HAMMING_BYTES;
		uint8_t stored[3] = {oob[p[0]], oob[p[1]], oob[p[2]]};
		int r = ff_nand_hamming256_correct(raw + s * FF_NAND_HAMMING_STEP, stored);

		if (r > 0)
			fixed++;
		else if (r < 0)
			(*failed)++;
	}
	return fixed;
}
