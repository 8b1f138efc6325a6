/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* rubin, JFFS2's binary arithmetic coder.  Each output byte is eight
 * symbols, least significant bit first; bit i is 1 with probability
 * bits[i] / divider.  The coder keeps a 16-bit interval (low end q, width
 * p) and the 16 input bits it has read (rec_q); whenever the interval gets
 * too narrow it is doubled, taking one more input bit, MSB first.  The
 * interval splits at i0 = A * p / (A + B), kept inside 1 .. p - 1, with A
 * = divider - bits[i] the weight of a 0 and B = bits[i] the weight of a 1.
 *
 * The fixed table is the MIPS one (divider 1043); the dynamic variant
 * stores its eight probabilities (divider 256) as the first eight bytes.
 * Bits past the end of the input read as 0 (the encoder flushes 16 bits,
 * so a sound stream never needs them). */
#include <errno.h>
#include <string.h>

#include "jffs2/decomp.h"

#define RUBIN_REG 16
#define RUBIN_UPPER (1ul << (RUBIN_REG - 1))
#define RUBIN_LOWER (RUBIN_UPPER - 1)

struct rubin {
	const uint8_t *in;
	size_t bits_in, bit;   /* input length and position, in bits */
	unsigned long p, q, rec_q;
	int divider;
	int prob[8];
};

static unsigned pull_bit(struct rubin *r)
{
	unsigned b = 0;

	if (r->bit < r->bits_in)
		b = (r->in[r->bit >> 3] >> (7 - (r->bit & 7))) & 1;
	r->bit++;
	return b;
}

/* Doubles the interval until it is wide enough again, reading a bit each
 * time.  A width of 0 cannot widen (the stream is damaged). */
static int renormalise(struct rubin *r)
{
	while (r->q >= RUBIN_UPPER || r->p + r->q <= RUBIN_UPPER) {
		if (!r->p)
			return -1;
		r->q = (r->q & RUBIN_LOWER) << 1;
		r->p <<= 1;
		r->rec_q = ((r->rec_q & RUBIN_LOWER) << 1) + pull_bit(r);
	}
	return 0;
}

static int decode_bit(struct rubin *r, long a, long b, unsigned *sym)
{
	unsigned long i0;

	if (renormalise(r))
		return -1;
	i0 = (unsigned long)a * r->p / (unsigned long)(a + b);
	if (i0 == 0)
		i0 = 1;
	if (i0 >= r->p)
		i0 = r->p - 1;
	*sym = r->rec_q >= r->q + i0;
	if (*sym) {
		r->q += i0;
		r->p -= i0;
	} else {
		r->p = i0;
	}
	return 0;
}

static int decode_byte(struct rubin *r, uint8_t *out)
{
	unsigned v = 0, sym;

	for (int i = 0; i < 8; i++) {
		if (decode_bit(r, r->divider - r->prob[i], r->prob[i], &sym))
			return -1;
		v |= sym << i;
	}
	*out = (uint8_t)v;
	return 0;
}

int j2_rubin_decode(int dynamic, const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		    struct ff_err *err)
{
	static const int mips[8] = { 277, 249, 290, 267, 229, 341, 212, 241 };
	struct rubin r;

	memset(&r, 0, sizeof(r));
	r.divider = dynamic ? 256 : 1043;
	if (dynamic) {
		if (n < 8)
			return ff_err_set(err, EIO, "dynrubin: %zu bytes, fewer than its 8-byte table", n);
		for (int i = 0; i < 8; i++)
			r.prob[i] = src[i];
		src += 8;
		n -= 8;
	} else {
		memcpy(r.prob, mips, sizeof(mips));
	}
	r.in = src;
	r.bits_in = n > (SIZE_MAX >> 3) ? SIZE_MAX : n * 8;
	r.p = 2 * RUBIN_UPPER;
	for (int i = 0; i < RUBIN_REG; i++)
		r.rec_q = r.rec_q * 2 + pull_bit(&r);
	for (size_t pos = 0; pos < out_len; pos++)
		if (decode_byte(&r, out + pos))
			return ff_err_set(err, EIO, "%s: the coder's interval collapsed at byte %zu",
					  dynamic ? "dynrubin" : "rubinmips", pos);
	return 0;
}
