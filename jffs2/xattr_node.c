/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The extended-attribute nodes: an xattr datum (struct jffs2_raw_xattr, 32
 * bytes + name + NUL + value; xid, version) holds one name/value pair, and
 * an xref (struct jffs2_raw_xref, 28 bytes) binds a datum to an inode. */
#include "common/endian.h"
#include "jffs2/node.h"

void j2_xattr_decode(const uint8_t *b, int big, struct j2_xattr_node *n)
{
	n->xid = ff_get32(b + 12, big);
	n->version = ff_get32(b + 16, big);
	n->xprefix = b[20];
	n->name_len = b[21];
	n->value_len = ff_get16(b + 22, big);
	n->data_crc = ff_get32(b + 24, big);
	n->node_crc = ff_get32(b + 28, big);
	n->data = b + J2_XATTR_SIZE;
}

const char *j2_xattr_check(const uint8_t *b, uint32_t totlen, const struct j2_xattr_node *n,
			   uint32_t *want, uint32_t *calc)
{
	uint32_t len = (uint32_t)n->name_len + 1 + n->value_len;

	*want = n->node_crc;
	*calc = j2_crc(b, J2_XATTR_SIZE - 4);
	if (*want != *calc)
		return "bad node CRC";
	*want = totlen;
	*calc = j2_pad(J2_XATTR_SIZE + len);
	if (*want != *calc)
		return "name and value sizes do not match totlen";
	*want = n->data_crc;
	*calc = j2_crc(n->data, len);
	if (*want != *calc)
		return "bad data CRC";
	return NULL;
}

void j2_xref_decode(const uint8_t *b, int big, struct j2_xref_node *n)
{
	n->ino = ff_get32(b + 12, big);
	n->xid = ff_get32(b + 16, big);
	n->xseqno = ff_get32(b + 20, big);
	n->node_crc = ff_get32(b + 24, big);
}

const char *j2_xref_check(const uint8_t *b, uint32_t totlen, const struct j2_xref_node *n,
			  uint32_t *want, uint32_t *calc)
{
	*want = n->node_crc;
	*calc = j2_crc(b, J2_XREF_SIZE - 4);
	if (*want != *calc)
		return "bad node CRC";
	*want = totlen;
	*calc = J2_XREF_SIZE;
	if (*want != *calc)
		return "totlen is not an xref's";
	return NULL;
}
