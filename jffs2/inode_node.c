/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The inode node (struct jffs2_raw_inode, 68 bytes): one version of an
 * inode's metadata and, when dsize is not 0, the data of one byte range of
 * it, compressed by the method compr names. */
#include "common/endian.h"
#include "jffs2/node.h"

void j2_inode_decode(const uint8_t *b, int big, struct j2_inode_node *n)
{
	n->ino = ff_get32(b + 12, big);
	n->version = ff_get32(b + 16, big);
	n->mode = ff_get32(b + 20, big);
	n->uid = ff_get16(b + 24, big);
	n->gid = ff_get16(b + 26, big);
	n->isize = ff_get32(b + 28, big);
	n->atime = ff_get32(b + 32, big);
	n->mtime = ff_get32(b + 36, big);
	n->ctime = ff_get32(b + 40, big);
	n->offset = ff_get32(b + 44, big);
	n->csize = ff_get32(b + 48, big);
	n->dsize = ff_get32(b + 52, big);
	n->compr = b[56];
	n->usercompr = b[57];
	n->flags = ff_get16(b + 58, big);
	n->data_crc = ff_get32(b + 60, big);
	n->node_crc = ff_get32(b + 64, big);
}

/* The kernel's checks (scan.c, readinode.c): the node CRC over the first
 * 60 bytes, then offset within isize and csize filling totlen, then the
 * CRC of the csize data bytes.  b holds totlen bytes. */
const char *j2_inode_check(const uint8_t *b, uint32_t totlen, const struct j2_inode_node *n,
			   uint32_t *want, uint32_t *calc)
{
	*want = n->node_crc;
	*calc = j2_crc(b, J2_INODE_SIZE - 8);
	if (*want != *calc)
		return "bad node CRC";
	*want = totlen;
	*calc = n->csize;
	if (n->csize > totlen - J2_INODE_SIZE ||
	    j2_pad(n->csize + J2_INODE_SIZE) != j2_pad(totlen))
		return "csize does not match totlen";
	*want = n->isize;
	*calc = n->offset;
	if (n->offset > n->isize)
		return "offset past isize";
	*want = n->data_crc;
	*calc = n->csize ? j2_crc(b + J2_INODE_SIZE, n->csize) : n->data_crc;
	if (*want != *calc)
		return "bad data CRC";
	return NULL;
}
