/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The 12-byte header every JFFS2 node starts with, and the kernel's CRC. */
#include <zlib.h>

#include "common/endian.h"
#include "jffs2/node.h"

uint32_t j2_crc(const uint8_t *p, size_t n)
{
	uLong c = 0xffffffffUL;

	/* zlib takes at most UINT_MAX bytes per call; nodes are far smaller,
	 * but stay correct for any n. */
	while (n) {
		uInt part = n > 0x40000000u ? 0x40000000u : (uInt)n;

		c = crc32(c, p, part);
		p += part;
		n -= part;
	}
	return (uint32_t)c ^ 0xffffffffu;
}

uint32_t j2_hdr_crc_calc(const uint8_t *b, int big)
{
	uint8_t tmp[8];

	for (int i = 0; i < 8; i++)
		tmp[i] = b[i];
	ff_put16(tmp + 2, (uint16_t)(ff_get16(b + 2, big) | J2_ACCURATE), big);
	return j2_crc(tmp, sizeof(tmp));
}

int j2_hdr_decode(const uint8_t *b, int big, struct j2_hdr *h)
{
	h->magic = ff_get16(b, big);
	h->type = ff_get16(b + 2, big);
	h->totlen = ff_get32(b + 4, big);
	h->hdr_crc = ff_get32(b + 8, big);
	return h->magic == J2_MAGIC && h->hdr_crc == j2_hdr_crc_calc(b, big);
}
