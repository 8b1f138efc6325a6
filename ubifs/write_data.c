/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Data nodes: one per 4 KiB block of a file that is not all zeros (a hole
 * has no node), holding the block's length before compression and the
 * codec its bytes are in. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

#define DATA_COMPR_SIZE 46

uint32_t uw_data_encode(uint32_t inum, uint32_t block, uint32_t size, uint32_t compr,
			const uint8_t *data, uint32_t len, uint8_t *p)
{
	memset(p, 0, UBIFS_DATA_NODE_SZ);
	uw_key_put(p + UBIFS_KEY_OFF, inum, ((uint32_t)UBIFS_DATA_NODE << 29) | block);
	ff_put_le32(p + DATA_SIZE, size);
	ff_put_le16(p + DATA_COMPR, (uint16_t)compr);
	ff_put_le16(p + DATA_COMPR_SIZE, 0); /* only for encrypted data */
	if (data != p + UBIFS_DATA_NODE_SZ)
		memmove(p + UBIFS_DATA_NODE_SZ, data, len);
	return UBIFS_DATA_NODE_SZ + len;
}
