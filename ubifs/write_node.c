/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The common header of every node the builder writes, and keys as they sit
 * in a node (16 bytes, the simple format in the first 8). */
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"
#include "ubifs/write_priv.h"

/* Sequence numbers count up in the order nodes are made, as mkfs.ubifs
 * numbers them; the kernel only needs them unique and below the master
 * node's. */
void uw_node_finish(uint8_t *p, uint32_t len, uint8_t type, uint64_t sqnum)
{
	ff_put_le32(p, UBIFS_MAGIC);
	ff_put_le64(p + CH_SQNUM, sqnum);
	ff_put_le32(p + CH_LEN, len);
	p[CH_TYPE] = type;
	p[CH_GROUP] = UBIFS_NO_GROUP;
	p[22] = p[23] = 0;
	ff_put_le32(p + CH_CRC, ubifs_crc(p + 8, len - 8));
}

void uw_key_put(uint8_t *p, uint32_t inum, uint32_t lo)
{
	ff_put_le32(p, inum);
	ff_put_le32(p + 4, lo);
	memset(p + 8, 0, 8);
}
