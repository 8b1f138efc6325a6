/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The directory entry node (struct jffs2_raw_dirent, 40 bytes + name),
 * as dirent_node.c decodes it: node CRC over 32 bytes, name CRC. */
#include <string.h>

#include "common/endian.h"
#include "jffs2/write_priv.h"

uint32_t j2_dirent_encode(uint8_t *b, uint32_t pino, uint32_t version, uint32_t ino,
			  uint32_t mctime, uint8_t type, const uint8_t *name, uint8_t nsize,
			  int big)
{
	j2_hdr_encode(b, J2_NT_DIRENT, J2_DIRENT_SIZE + nsize, big);
	ff_put32(b + 12, pino, big);
	ff_put32(b + 16, version, big);
	ff_put32(b + 20, ino, big);
	ff_put32(b + 24, mctime, big);
	b[28] = nsize;
	b[29] = type;
	b[30] = b[31] = 0;
	ff_put32(b + 32, j2_crc(b, J2_DIRENT_SIZE - 8), big);
	ff_put32(b + 36, j2_crc(name, nsize), big);
	memcpy(b + J2_DIRENT_SIZE, name, nsize);
	return J2_DIRENT_SIZE + nsize;
}
