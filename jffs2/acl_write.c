/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A POSIX ACL from the host's xattr form (little-endian: version 2, then
 * 8-byte entries of tag, permissions, id) into the form JFFS2 stores (see
 * acl.c): version 1 in the image's byte order, then tag and permissions,
 * with the 4-byte id only for the named user and group tags. */
#include "common/endian.h"
#include "jffs2/write_priv.h"

enum { T_USER_OBJ = 1, T_USER = 2, T_GROUP_OBJ = 4, T_GROUP = 8, T_MASK = 0x10,
       T_OTHER = 0x20 };

int j2_acl_to_jffs2(const uint8_t *in, size_t in_len, uint8_t *out, size_t *len, int big)
{
	size_t o = 4;

	if (in_len < 4 || (in_len - 4) % 8)
		return -1;
	ff_put32(out, 1, big);
	for (size_t i = 4; i < in_len; i += 8) {
		uint16_t tag = ff_get_le16(in + i);

		if (tag != T_USER_OBJ && tag != T_USER && tag != T_GROUP_OBJ && tag != T_GROUP &&
		    tag != T_MASK && tag != T_OTHER)
			return -1;
		ff_put16(out + o, tag, big);
		ff_put16(out + o + 2, ff_get_le16(in + i + 2), big);
		o += 4;
		if (tag == T_USER || tag == T_GROUP) {
			ff_put32(out + o, ff_get_le32(in + i + 4), big);
			o += 4;
		}
	}
	*len = o;
	return 0;
}
