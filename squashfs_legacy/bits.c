/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Bit fields of the pre-4.0 structures.  A compiler on a little-endian
 * machine fills a bit field from the least significant bit of the lowest
 * byte up; one on a big-endian machine from the most significant bit of
 * the lowest byte down.  So with the bits of a structure numbered from 0
 * in the order the compiler filled them, a field at (pos, width) is, for
 * little-endian images, bits pos.. of the bytes read as one little-endian
 * number, and for big-endian images bits pos.. counted from the top of the
 * bytes read as one big-endian number.  Byte-aligned whole fields come out
 * as plain integers of the image's byte order either way. */
#include "squashfs_legacy/legacy.h"

uint64_t lsq_bits(const uint8_t *p, unsigned pos, unsigned width, int big)
{
	unsigned first = pos / 8, shift = pos % 8;
	unsigned nbytes = (shift + width + 7) / 8;
	uint64_t v = 0, mask = width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;

	if (big) {
		for (unsigned i = 0; i < nbytes; i++)
			v = v << 8 | p[first + i];
		return v >> (nbytes * 8 - shift - width) & mask;
	}
	for (unsigned i = nbytes; i-- > 0;)
		v = v << 8 | p[first + i];
	return v >> shift & mask;
}

int64_t lsq_sbits(const uint8_t *p, unsigned pos, unsigned width, int big)
{
	uint64_t v = lsq_bits(p, pos, width, big);

	if (width < 64 && (v >> (width - 1) & 1))
		v |= UINT64_MAX << width;
	return (int64_t)v;
}
