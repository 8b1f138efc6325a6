/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The xattr datum (struct jffs2_raw_xattr: 32 bytes, then the name
 * without its prefix, a NUL and the value) and the xref binding it to an
 * inode (struct jffs2_raw_xref, 28 bytes), as xattr_node.c decodes them.
 * A datum's totlen is padded to 4, unlike other nodes'. */
#include <string.h>

#include "common/endian.h"
#include "jffs2/write_priv.h"

uint32_t j2_xattr_encode(uint8_t *b, uint32_t xid, uint8_t xprefix, const char *name,
			 uint8_t name_len, const uint8_t *value, uint16_t value_len, int big)
{
	uint32_t len = (uint32_t)name_len + 1 + value_len;

	j2_hdr_encode(b, J2_NT_XATTR, j2_pad(J2_XATTR_SIZE + len), big);
	ff_put32(b + 12, xid, big);
	ff_put32(b + 16, 1, big); /* the first version */
	b[20] = xprefix;
	b[21] = name_len;
	ff_put16(b + 22, value_len, big);
	memcpy(b + J2_XATTR_SIZE, name, name_len);
	b[J2_XATTR_SIZE + name_len] = 0;
	if (value_len)
		memcpy(b + J2_XATTR_SIZE + name_len + 1, value, value_len);
	ff_put32(b + 24, j2_crc(b + J2_XATTR_SIZE, len), big);
	ff_put32(b + 28, j2_crc(b, J2_XATTR_SIZE - 4), big);
	return J2_XATTR_SIZE + len;
}

uint32_t j2_xref_encode(uint8_t *b, uint32_t ino, uint32_t xid, uint32_t xseqno, int big)
{
	j2_hdr_encode(b, J2_NT_XREF, J2_XREF_SIZE, big);
	ff_put32(b + 12, ino, big);
	ff_put32(b + 16, xid, big);
	ff_put32(b + 20, xseqno, big);
	ff_put32(b + 24, j2_crc(b, J2_XREF_SIZE - 4), big);
	return J2_XREF_SIZE;
}
