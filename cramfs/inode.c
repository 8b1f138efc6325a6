/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* CramFS inodes to and from their 12 bytes (the layouts are in inode.h). */
#include "cramfs/inode.h"

#include "common/endian.h"

void cr_inode_decode(const uint8_t *b, int big, struct cr_inode *in)
{
	uint32_t w0 = ff_get32(b, big), w1 = ff_get32(b + 4, big), w2 = ff_get32(b + 8, big);

	if (big) {
		in->mode = w0 >> 16;
		in->uid = w0 & 0xffff;
		in->size = w1 >> 8;
		in->gid = w1 & 0xff;
		in->name_bytes = (w2 >> 26) << 2;
		in->offset = (w2 & 0x3ffffff) << 2;
	} else {
		in->mode = w0 & 0xffff;
		in->uid = w0 >> 16;
		in->size = w1 & 0xffffff;
		in->gid = w1 >> 24;
		in->name_bytes = (w2 & 0x3f) << 2;
		in->offset = (w2 >> 6) << 2;
	}
}

void cr_inode_encode(const struct cr_inode *in, int big, uint8_t *b)
{
	uint32_t mode = in->mode & 0xffff, uid = in->uid & 0xffff, gid = in->gid & 0xff;
	uint32_t size = in->size & 0xffffff, units = (in->name_bytes >> 2) & 0x3f;
	uint32_t off = (in->offset >> 2) & 0x3ffffff;

	if (big) {
		ff_put_be32(b, mode << 16 | uid);
		ff_put_be32(b + 4, size << 8 | gid);
		ff_put_be32(b + 8, units << 26 | off);
	} else {
		ff_put_le32(b, mode | uid << 16);
		ff_put_le32(b + 4, size | gid << 24);
		ff_put_le32(b + 8, units | off << 6);
	}
}

void cr_rdev_decode(uint32_t size, uint32_t *major, uint32_t *minor)
{
	*major = (size >> 8) & 0xfff;
	*minor = (size & 0xff) | ((size >> 12) & 0xf00);
}

uint32_t cr_rdev_encode(uint32_t major, uint32_t minor)
{
	return ((minor & 0xff) | (major & 0xfff) << 8 | (minor & 0xf00) << 12) & 0xffffff;
}
