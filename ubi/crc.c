/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBI's CRC through zlib.  zlib's crc32(c, buf) runs the reflected CRC-32
 * register from ~c and returns the register inverted; the kernel's
 * crc32_le(seed, buf) runs the same register from seed and returns it as
 * is.  So crc32_le(seed, buf) == ~crc32(~seed, buf), and with UBI's seed
 * 0xFFFFFFFF that is ~crc32(0, buf). */
#include <zlib.h>

#include "ubi/media.h"

uint32_t ff_ubi_crc32(const void *buf, size_t len)
{
	return (uint32_t)crc32_z(0, buf, len) ^ 0xFFFFFFFFu;
}

int ff_ubi_is_erased(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != 0xFF)
			return 0;
	return 1;
}
