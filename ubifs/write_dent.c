/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory entry nodes: keyed by the directory's inode number and a hash
 * of the name, the name stored NUL-terminated after the node.  Extended
 * attribute entries are the same node with another key type (and node
 * type), keyed by the host's inode number. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"
#include "ubifs/write_priv.h"

uint32_t uw_dent_encode(int key_hash, uint8_t ktype, uint64_t dir, const char *name,
			uint32_t nlen, uint64_t inum, uint8_t itype, uint8_t *p, uint32_t *lo)
{
	*lo = ((uint32_t)ktype << 29) | ubifs_hash_name(key_hash, name, nlen);
	memset(p, 0, UBIFS_DENT_NODE_SZ);
	uw_key_put(p + UBIFS_KEY_OFF, (uint32_t)dir, *lo);
	ff_put_le64(p + DENT_INUM, inum);
	p[DENT_TYPE] = itype;
	ff_put_le16(p + DENT_NLEN, (uint16_t)nlen);
	ff_put_le32(p + DENT_COOKIE, 0);
	memcpy(p + UBIFS_DENT_NODE_SZ, name, nlen);
	p[UBIFS_DENT_NODE_SZ + nlen] = 0;
	return UBIFS_DENT_NODE_SZ + nlen + 1;
}
