/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The superblock of layouts 1.x, 2.x and 3.x.  All three share one
 * structure that grew at its end: 1.x reads the first 51 bytes (16-bit
 * block size, 32-bit table positions), 2.x 63 (32-bit block size, the
 * fragment table), 3.x all 119 (64-bit table positions, the export
 * table).  Every field is byte-aligned, so the image's byte order is all
 * a decoder needs; the magic says which it is. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/endian.h"
#include "squashfs_legacy/legacy.h"

/* Byte offsets of the fields (the structure is packed). */
enum {
	SB_MAGIC = 0, SB_INODES = 4, SB_BYTES_USED_2 = 8, SB_UID_START_2 = 12,
	SB_GUID_START_2 = 16, SB_INODE_TABLE_2 = 20, SB_DIR_TABLE_2 = 24, SB_MAJOR = 28,
	SB_MINOR = 30, SB_BLOCK_SIZE_1 = 32, SB_BLOCK_LOG = 34, SB_FLAGS = 36, SB_NO_UIDS = 37,
	SB_NO_GUIDS = 38, SB_MKFS_TIME = 39, SB_ROOT = 43, SB_BLOCK_SIZE = 51, SB_FRAGMENTS = 55,
	SB_FRAG_TABLE_2 = 59, SB_BYTES_USED = 63, SB_UID_START = 71, SB_GUID_START = 79,
	SB_INODE_TABLE = 87, SB_DIR_TABLE = 95, SB_FRAG_TABLE = 103, SB_LOOKUP_TABLE = 111,
};

#define LSQ_MINOR_LZMA 0x4c /* 'L': vendor LZMA builds of 2.x and 3.x */

int lsq_magic_match(const uint8_t *buf, size_t len, int *big, int *alt)
{
	static const char *const magics[4] = {"hsqs", "sqsh", "shsq", "qshs"};

	if (len < 4)
		return 0;
	for (int i = 0; i < 4; i++) {
		if (!memcmp(buf, magics[i], 4)) {
			*big = i & 1;
			*alt = i >> 1;
			return 1;
		}
	}
	return 0;
}

static uint64_t u16(const struct lsq_super *sb, const uint8_t *b, unsigned at)
{
	return sb->big ? ff_get_be16(b + at) : ff_get_le16(b + at);
}

static uint64_t u32(const struct lsq_super *sb, const uint8_t *b, unsigned at)
{
	return sb->big ? ff_get_be32(b + at) : ff_get_le32(b + at);
}

static uint64_t u64(const struct lsq_super *sb, const uint8_t *b, unsigned at)
{
	return lsq_bits(b + at, 0, 64, sb->big);
}

static int version_ok(unsigned major, unsigned minor)
{
	switch (major) {
	case 1: return minor == 0;
	case 2:
	case 3: return minor <= 1 || minor == LSQ_MINOR_LZMA;
	default: return 0;
	}
}

/* The 32-bit table positions of 1.x and 2.x. */
static void decode_tables_2(struct lsq_super *sb, const uint8_t *b)
{
	sb->bytes_used = u32(sb, b, SB_BYTES_USED_2);
	sb->uid_start = u32(sb, b, SB_UID_START_2);
	sb->guid_start = u32(sb, b, SB_GUID_START_2);
	sb->inode_table = u32(sb, b, SB_INODE_TABLE_2);
	sb->dir_table = u32(sb, b, SB_DIR_TABLE_2);
	sb->lookup_table = LSQ_NO_TABLE;
}

static void decode_tables_3(struct lsq_super *sb, const uint8_t *b)
{
	sb->bytes_used = u64(sb, b, SB_BYTES_USED);
	sb->uid_start = u64(sb, b, SB_UID_START);
	sb->guid_start = u64(sb, b, SB_GUID_START);
	sb->inode_table = u64(sb, b, SB_INODE_TABLE);
	sb->dir_table = u64(sb, b, SB_DIR_TABLE);
	sb->fragment_table = u64(sb, b, SB_FRAG_TABLE);
	sb->lookup_table = u64(sb, b, SB_LOOKUP_TABLE);
}

static void decode_fields(struct lsq_super *sb, const uint8_t *b)
{
	sb->inodes = (uint32_t)u32(sb, b, SB_INODES);
	sb->block_log = (uint32_t)u16(sb, b, SB_BLOCK_LOG);
	sb->flags = b[SB_FLAGS];
	sb->no_uids = b[SB_NO_UIDS];
	sb->no_guids = b[SB_NO_GUIDS];
	sb->mkfs_time = (int32_t)u32(sb, b, SB_MKFS_TIME);
	sb->root_inode = u64(sb, b, SB_ROOT);
	if (sb->major == 1) {
		sb->sb_size = 51;
		sb->block_size = (uint32_t)u16(sb, b, SB_BLOCK_SIZE_1);
		decode_tables_2(sb, b);
		return;
	}
	sb->block_size = (uint32_t)u32(sb, b, SB_BLOCK_SIZE);
	sb->fragments = (uint32_t)u32(sb, b, SB_FRAGMENTS);
	if (sb->major == 2) {
		sb->sb_size = 63;
		decode_tables_2(sb, b);
		sb->fragment_table = u32(sb, b, SB_FRAG_TABLE_2);
		return;
	}
	sb->sb_size = LSQ_SUPER_MAX;
	decode_tables_3(sb, b);
}

static int check_sizes(const struct lsq_super *sb, uint64_t src_size, struct ff_err *err)
{
	uint32_t max_block = sb->major == 1 ? 32768 : sb->major == 2 ? 65536 : 1u << 20;

	if (sb->block_size < 512 || sb->block_size > max_block || sb->block_log > 20 ||
	    sb->block_size != 1u << sb->block_log)
		return ff_err_set(err, EIO,
				  "superblock: block size %u (log %u) is not a power of two "
				  "from 512 to %u matching its log",
				  sb->block_size, sb->block_log, max_block);
	if (sb->bytes_used < sb->sb_size || sb->bytes_used > src_size)
		return ff_err_set(err, EIO,
				  "superblock: bytes_used %llu outside the image (%llu bytes)",
				  (unsigned long long)sb->bytes_used,
				  (unsigned long long)src_size);
	if (sb->inode_table < sb->sb_size || sb->inode_table >= sb->dir_table ||
	    sb->dir_table > sb->bytes_used)
		return ff_err_set(err, EIO,
				  "superblock: inode table at %llu and directory table at %llu "
				  "not in order inside %llu bytes",
				  (unsigned long long)sb->inode_table,
				  (unsigned long long)sb->dir_table,
				  (unsigned long long)sb->bytes_used);
	return 0;
}

static int check_root(const struct lsq_super *sb, struct ff_err *err)
{
	uint64_t block = sb->root_inode >> 16, off = sb->root_inode & 0xffff;

	if (block >= sb->dir_table - sb->inode_table || off >= LSQ_META_SIZE)
		return ff_err_set(err, EIO,
				  "superblock: root inode reference %llu:%llu outside the "
				  "inode table (%llu bytes)",
				  (unsigned long long)block, (unsigned long long)off,
				  (unsigned long long)(sb->dir_table - sb->inode_table));
	if (!sb->no_uids || (sb->major == 1 && (sb->no_uids > 48 || sb->no_guids > 15)))
		return ff_err_set(err, EIO, "superblock: %u uids and %u gids are not possible",
				  sb->no_uids, sb->no_guids);
	return 0;
}

int lsq_super_decode(const uint8_t *buf, size_t len, uint64_t src_size, struct lsq_super *sb,
		     struct ff_err *err)
{
	memset(sb, 0, sizeof(*sb));
	if (!lsq_magic_match(buf, len, &sb->big, &sb->alt_magic))
		return ff_err_set(err, EINVAL, "not a SquashFS superblock (no magic)");
	if (len < 32)
		return ff_err_set(err, EIO, "superblock: %zu bytes, too short", len);
	sb->major = (unsigned)u16(sb, buf, SB_MAJOR);
	sb->minor = (unsigned)u16(sb, buf, SB_MINOR);
	if (!version_ok(sb->major, sb->minor))
		return ff_err_set(err, EINVAL, "SquashFS %u.%u is not a 1.x, 2.x or 3.x layout",
				  sb->major, sb->minor);
	if (len < (sb->major == 1 ? 51u : sb->major == 2 ? 63u : LSQ_SUPER_MAX))
		return ff_err_set(err, EIO, "superblock of SquashFS %u.x truncated (%zu bytes)",
				  sb->major, len);
	decode_fields(sb, buf);
	if (check_sizes(sb, src_size, err) < 0 || check_root(sb, err) < 0)
		return -1;
	return 0;
}

void lsq_super_version(const struct lsq_super *sb, char *buf, size_t cap)
{
	if (sb->minor == LSQ_MINOR_LZMA)
		snprintf(buf, cap, "%u.L", sb->major);
	else
		snprintf(buf, cap, "%u.%u", sb->major, sb->minor);
}
