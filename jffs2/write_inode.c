/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The inode node (struct jffs2_raw_inode, 68 bytes + csize data bytes),
 * field for field as inode_node.c decodes it.  The node CRC covers the
 * first 60 bytes (up to data_crc), the data CRC the stored bytes; with no
 * data it is 0, the CRC of nothing. */
#include "common/endian.h"
#include "jffs2/write_priv.h"

uint32_t j2_inode_encode(uint8_t *b, const struct j2_inode_node *n, const uint8_t *data,
			 int big)
{
	uint32_t totlen = J2_INODE_SIZE + n->csize;

	j2_hdr_encode(b, J2_NT_INODE, totlen, big);
	ff_put32(b + 12, n->ino, big);
	ff_put32(b + 16, n->version, big);
	ff_put32(b + 20, n->mode, big);
	ff_put16(b + 24, n->uid, big);
	ff_put16(b + 26, n->gid, big);
	ff_put32(b + 28, n->isize, big);
	ff_put32(b + 32, n->atime, big);
	ff_put32(b + 36, n->mtime, big);
	ff_put32(b + 40, n->ctime, big);
	ff_put32(b + 44, n->offset, big);
	ff_put32(b + 48, n->csize, big);
	ff_put32(b + 52, n->dsize, big);
	b[56] = n->compr;
	b[57] = n->usercompr;
	ff_put16(b + 58, n->flags, big);
	ff_put32(b + 60, n->csize ? j2_crc(data, n->csize) : 0, big);
	ff_put32(b + 64, j2_crc(b, J2_INODE_SIZE - 8), big);
	return totlen;
}
