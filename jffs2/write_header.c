/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The 12-byte node header, as every encoder starts its node: magic, type
 * (with the ACCURATE bit), total length and the CRC of those 8 bytes.  A
 * cleanmarker is this header alone, its totlen the cleanmarker size. */
#include "common/endian.h"
#include "jffs2/write_priv.h"

void j2_hdr_encode(uint8_t *b, uint16_t type, uint32_t totlen, int big)
{
	ff_put16(b, J2_MAGIC, big);
	ff_put16(b + 2, type, big);
	ff_put32(b + 4, totlen, big);
	ff_put32(b + 8, j2_crc(b, 8), big);
}
