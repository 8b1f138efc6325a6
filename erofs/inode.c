/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An inode, compact (32 bytes) or extended (64 bytes), found by its nid:
 * meta_blkaddr's block plus nid * 32 bytes. */
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "erofs/reader.h"

uint32_t er_mode_of_ftype(unsigned ft)
{
	static const uint32_t m[] = { 0, S_IFREG, S_IFDIR, S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK,
				      S_IFLNK };

	return ft < ER_FT_MAX ? m[ft] : 0;
}

static void decode_compact(const struct er_rd *rd, const uint8_t *b, struct er_inode *ino)
{
	ino->isize = ER_INODE_COMPACT_SIZE;
	ino->mode = ff_get_le16(b + 4);
	if (!S_ISDIR(ino->mode) && (ino->ifmt & ER_I_NLINK_1))
		ino->nlink = 1;
	else
		ino->nlink = ff_get_le16(b + 6);
	ino->size = ff_get_le32(b + 8);
	/* Compact inodes store seconds after the superblock's epoch (zero
	 * in images older than the mtime feature: the build time). */
	ino->mtime = rd->sb.epoch + ff_get_le32(b + 12);
	ino->mtime_nsec = rd->sb.fixed_nsec;
	ino->ino = ff_get_le32(b + 20);
	ino->uid = ff_get_le16(b + 24);
	ino->gid = ff_get_le16(b + 26);
}

static void decode_extended(const uint8_t *b, struct er_inode *ino)
{
	ino->isize = ER_INODE_EXTENDED_SIZE;
	ino->mode = ff_get_le16(b + 4);
	ino->size = ff_get_le64(b + 8);
	ino->ino = ff_get_le32(b + 20);
	ino->uid = ff_get_le32(b + 24);
	ino->gid = ff_get_le32(b + 28);
	ino->mtime = (int64_t)ff_get_le64(b + 32);
	ino->mtime_nsec = ff_get_le32(b + 40);
	ino->nlink = ff_get_le32(b + 44);
}

/* The union after the size: blocks for flat files, the device number,
 * the compressed block count or the chunk format. */
static int decode_union(const struct er_rd *rd, uint32_t u, struct er_inode *ino,
			struct ff_err *err)
{
	switch (ino->mode & S_IFMT) {
	case S_IFREG: case S_IFDIR: case S_IFLNK:
		ino->startblk = u;
		ino->startblk_null = ino->layout == ER_FLAT_PLAIN && u == ER_NULL_ADDR32;
		break;
	case S_IFCHR: case S_IFBLK:
		ino->rdev_major = (u & 0xfff00) >> 8;
		ino->rdev_minor = (u & 0xff) | ((u >> 12) & 0xfff00);
		return 0;
	case S_IFIFO: case S_IFSOCK:
		return 0;
	default:
		return ER_BAD(err, "inode %llu: mode 0%o is no file type",
			      (unsigned long long)ino->nid, ino->mode);
	}
	if (ino->layout == ER_COMPRESSED_FULL || ino->layout == ER_COMPRESSED_COMPACT)
		ino->cblocks = u;
	if (ino->layout == ER_CHUNK_BASED) {
		ino->chunkformat = (uint16_t)u;
		if (ino->chunkformat & ~(ER_CHUNK_ALL & ~ER_CHUNK_48BIT))
			return ER_UNSUP(err, "inode %llu: chunk format 0x%x not supported",
					(unsigned long long)ino->nid, ino->chunkformat);
		ino->chunkbits = rd->sb.blkszbits + (ino->chunkformat & ER_CHUNK_BLKBITS_MASK);
		if (ino->chunkbits > 63)
			return ER_BAD(err, "inode %llu: chunk size 2^%u bytes",
				      (unsigned long long)ino->nid, ino->chunkbits);
	}
	return 0;
}

static int check_layout(const struct er_inode *ino, struct ff_err *err)
{
	int compressed = ino->layout == ER_COMPRESSED_FULL ||
			 ino->layout == ER_COMPRESSED_COMPACT;

	if (ino->ifmt & ~ER_I_ALL)
		return ER_UNSUP(err, "inode %llu: format bits 0x%x not supported",
				(unsigned long long)ino->nid, ino->ifmt);
	if (ino->layout >= ER_LAYOUT_MAX)
		return ER_UNSUP(err, "inode %llu: data layout %u not supported",
				(unsigned long long)ino->nid, ino->layout);
	if ((compressed || ino->layout == ER_CHUNK_BASED) && !S_ISREG(ino->mode) &&
	    !S_ISDIR(ino->mode) && !S_ISLNK(ino->mode))
		return ER_BAD(err, "inode %llu: mode 0%o with data layout %u",
			      (unsigned long long)ino->nid, ino->mode, ino->layout);
	return 0;
}

int er_inode_load(const struct er_rd *rd, uint64_t nid, struct er_inode *ino,
		  struct ff_err *err)
{
	uint8_t b[ER_INODE_EXTENDED_SIZE] = {0};
	uint64_t base = er_blkpos(rd, rd->sb.meta_blkaddr), size = rd->src->size;
	int ret;

	memset(ino, 0, sizeof(*ino));
	ino->nid = nid;
	if (nid > (size >> 5) || base + (nid << 5) + ER_INODE_COMPACT_SIZE > size)
		return ER_BAD(err, "inode %llu: past the end of the image (%llu bytes)",
			      (unsigned long long)nid, (unsigned long long)size);
	ino->iloc = base + (nid << 5);
	if ((ret = er_pread(rd, b, ER_INODE_COMPACT_SIZE, ino->iloc, "inode", nid, err)) < 0)
		return ret;
	ino->ifmt = ff_get_le16(b);
	ino->layout = (ino->ifmt >> ER_I_DATALAYOUT_SHIFT) & ER_I_DATALAYOUT_MASK;
	ino->xattr_icount = ff_get_le16(b + 2);
	ino->xattr_isize = ino->xattr_icount ? ER_XATTR_IBODY_HEADER +
					       4u * (ino->xattr_icount - 1u) : 0;
	if (ino->ifmt & ER_I_VERSION_MASK) {
		if ((ret = er_pread(rd, b, ER_INODE_EXTENDED_SIZE, ino->iloc, "inode", nid,
				    err)) < 0)
			return ret;
		decode_extended(b, ino);
	} else {
		decode_compact(rd, b, ino);
	}
	if ((ret = check_layout(ino, err)) < 0)
		return ret;
	return decode_union(rd, ff_get_le32(b + 16), ino, err);
}
