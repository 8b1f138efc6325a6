/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The Linux software Hamming ECC: the code's definition, every single
 * flipped bit repaired (data and code), two flipped bits refused, the
 * kernel's default OOB positions, and a whole raw page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "common/nand_ecc.h"
#include "tests/unit/test_noise.h"

/* inverted row parities over byte-index bits, inverted column parities
 * over bit positions; erased data gives an erased code */
static void definition(void **state)
{
	uint8_t data[256], code[3];

	(void)state;
	memset(data, 0xff, sizeof(data));
	ff_nand_hamming256(data, code);
	assert_int_equal(code[0], 0xff);
	assert_int_equal(code[1], 0xff);
	assert_int_equal(code[2], 0xff);
	memset(data, 0, sizeof(data));
	data[0] = 0x01;
	ff_nand_hamming256(data, code);
	assert_int_equal(code[1], 0xaa); /* rp0,2,4,6 flipped */
	assert_int_equal(code[0], 0xaa); /* rp8..14 flipped */
	assert_int_equal(code[2], 0xab);
}

static void every_single_bit(void **state)
{
	uint8_t data[256], orig[256], code[3];

	(void)state;
	test_noise(orig, sizeof(orig), 7);
	ff_nand_hamming256(orig, code);
	memcpy(data, orig, sizeof(data));
	assert_int_equal(ff_nand_hamming256_correct(data, code), 0);
	for (unsigned bit = 0; bit < 256 * 8; bit++) {
		memcpy(data, orig, sizeof(data));
		data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_int_equal(ff_nand_hamming256_correct(data, code), 1);
		assert_memory_equal(data, orig, sizeof(data));
	}
	for (unsigned bit = 0; bit < 24; bit++) { /* the code's own bits */
		uint8_t bad[3] = {code[0], code[1], code[2]};

		if (bit == 16 || bit == 17)
			continue; /* code[2]'s two low bits are always set, not parities */

		bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		memcpy(data, orig, sizeof(data));
		assert_int_equal(ff_nand_hamming256_correct(data, bad), 1);
		assert_memory_equal(data, orig, sizeof(data));
	}
}

static void two_bits_refused(void **state)
{
	uint8_t data[256], orig[256], code[3];

	(void)state;
	test_noise(orig, sizeof(orig), 99);
	ff_nand_hamming256(orig, code);
	for (unsigned a = 0; a < 256 * 8; a += 37)
		for (unsigned b = a + 1; b < 256 * 8; b += 101) {
			memcpy(data, orig, sizeof(data));
			data[a / 8] ^= (uint8_t)(1u << (a % 8));
			data[b / 8] ^= (uint8_t)(1u << (b % 8));
			assert_int_equal(ff_nand_hamming256_correct(data, code), -1);
		}
}

static void positions(void **state)
{
	uint16_t pos[FF_NAND_HAMMING_MAX_POS];

	(void)state;
	assert_int_equal(ff_nand_hamming_positions(2048, 64, pos), 24);
	assert_int_equal(pos[0], 40);
	assert_int_equal(pos[23], 63);
	assert_int_equal(ff_nand_hamming_positions(4096, 128, pos), 48);
	assert_int_equal(pos[0], 80);
	assert_int_equal(ff_nand_hamming_positions(4096, 224, pos), 48);
	assert_int_equal(pos[0], 176);
	assert_int_equal(ff_nand_hamming_positions(512, 16, pos), 6);
	assert_int_equal(pos[3], 3);
	assert_int_equal(pos[4], 6);
	assert_int_equal(pos[5], 7);
	assert_int_equal(ff_nand_hamming_positions(2048, 16, pos), 0);
	assert_int_equal(ff_nand_hamming_positions(2048, 0, pos), 0);
}

static void raw_page(void **state)
{
	uint8_t raw[2048 + 64], orig[2048 + 64];
	uint16_t pos[FF_NAND_HAMMING_MAX_POS];
	size_t n = ff_nand_hamming_positions(2048, 64, pos);
	unsigned failed = 0;

	(void)state;
	test_noise(orig, 2048, 3);
	memset(orig + 2048, 0xff, 64);
	for (unsigned s = 0; s < 8; s++) {
		uint8_t code[3];

		ff_nand_hamming256(orig + s * 256, code);
		for (unsigned i = 0; i < 3; i++)
			orig[2048 + pos[s * 3 + i]] = code[i];
	}
	memcpy(raw, orig, sizeof(raw));
	assert_int_equal(ff_nand_hamming_page(raw, 2048, pos, n, &failed), 0);
	raw[10] ^= 0x04;   /* step 0 */
	raw[1500] ^= 0x80; /* step 5 */
	assert_int_equal(ff_nand_hamming_page(raw, 2048, pos, n, &failed), 2);
	assert_int_equal(failed, 0);
	assert_memory_equal(raw, orig, sizeof(raw));
	raw[300] ^= 0x01; /* two in step 1: named, left as they are */
	raw[400] ^= 0x10;
	assert_int_equal(ff_nand_hamming_page(raw, 2048, pos, n, &failed), 0);
	assert_int_equal(failed, 1);
	assert_int_equal(raw[300], orig[300] ^ 0x01);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(definition),
		cmocka_unit_test(every_single_bit),
		cmocka_unit_test(two_bits_refused),
		cmocka_unit_test(positions),
		cmocka_unit_test(raw_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
