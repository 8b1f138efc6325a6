/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The superblock, 128 bytes at offset 1024, and its crc32c: computed as
 * the kernel checks it, over the rest of the superblock's block (the
 * inodes that share it included) with the checksum field zero, the
 * register starting at ~0 and not inverted at the end.  For blocks of
 * 1024 bytes or less the span is one block. */
#include <string.h>

#include "common/crc.h"
#include "common/endian.h"
#include "erofs/compressor.h"
#include "erofs/layout.h"
#include "erofs/reader.h"
#include "erofs/write_priv.h"

void ew_super_encode(const struct ew *w, uint8_t *buf, uint64_t inos, uint32_t blocks)
{
	uint8_t *sb = buf + ER_SUPER_OFFSET;
	uint32_t incompat = 0, span = w->blksz > ER_SUPER_OFFSET ? w->blksz - ER_SUPER_OFFSET
							         : w->blksz;

	memset(sb, 0, ER_SUPER_SIZE);
	ff_put_le32(sb + ER_SB_MAGIC, ER_SUPER_MAGIC);
	ff_put_le32(sb + ER_SB_COMPAT, ER_COMPAT_SB_CHKSUM);
	sb[ER_SB_BLKSZBITS] = (uint8_t)w->blkbits;
	ff_put_le16(sb + ER_SB_ROOTNID, (uint16_t)w->inos[0].nid);
	ff_put_le64(sb + ER_SB_INOS, inos);
	ff_put_le64(sb + ER_SB_EPOCH, (uint64_t)w->o->build_time);
	ff_put_le32(sb + ER_SB_BLOCKS, blocks);
	ff_put_le32(sb + ER_SB_META_BLKADDR, 0);
	ff_put_le32(sb + ER_SB_XATTR_BLKADDR, w->xattr_blkaddr);
	memcpy(sb + ER_SB_UUID, w->o->uuid, 16);
	memcpy(sb + ER_SB_VOLNAME, w->o->label, 16);
	if (w->algs) {
		/* 0PADDING: compressed data sits at the end of its pcluster, so
		 * the decoder knows where it starts; COMPR_CFGS: the algorithm
		 * bitmap below and a config record per algorithm after it. */
		incompat |= ER_INCOMPAT_LZ4_0PADDING | ER_INCOMPAT_COMPR_CFGS;
		ff_put_le16(sb + ER_SB_U1, w->algs);
		if (w->o->ztailpacking)
			incompat |= ER_INCOMPAT_ZTAILPACKING;
	}
	if (w->chunked)
		incompat |= ER_INCOMPAT_CHUNKED_FILE;
	if (w->deduped) /* the same bit: extents on other files' pclusters */
		incompat |= ER_INCOMPAT_FRAGMENTS;
	if (w->packed.n) {
		/* fragments: the packed inode holds files' tails */
		incompat |= ER_INCOMPAT_FRAGMENTS;
		ff_put_le64(sb + ER_SB_PACKED_NID, w->packed.nid);
	}
	ff_put_le32(sb + ER_SB_INCOMPAT, incompat);
	ff_put_le32(sb + ER_SB_CHECKSUM, ff_crc32c(~0u, sb, span));
}

/* One record: a le16 length, then the algorithm's settings (lz4: the
 * match distance and the pcluster blocks; lzma: the dictionary; deflate:
 * the window bits; zstd: the window log above 2^10). */
uint32_t ew_super_cfg(const struct ew *w, uint8_t *buf)
{
	uint8_t *p = buf + ER_SUPER_OFFSET + ER_SUPER_SIZE;
	uint16_t len;

	if (!w->algs)
		return 0;
	switch (w->o->codec) {
	case FF_EROFS_LZMA:
		len = 14;
		ff_put_le32(p + 2, w->ext_cap);
		break;
	case FF_EROFS_DEFLATE:
		len = 6;
		p[2] = 15;
		break;
	case FF_EROFS_ZSTD:
		len = 6;
		p[3] = (uint8_t)(ew_codec_log2(w->ext_cap) - 10);
		break;
	default:
		len = 14;
		ff_put_le16(p + 2, 0xffff);
		ff_put_le16(p + 4, (uint16_t)(w->pcluster >> w->blkbits));
		break;
	}
	ff_put_le16(p, len);
	return 2u + len;
}
