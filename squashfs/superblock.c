/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include <errno.h>

#include "common/endian.h"
#include "squashfs/format.h"

void sqfs_super_encode(const struct sqfs_super *sb, uint8_t out[SQFS_SUPER_SIZE])
{
	ff_put_le32(out + 0, SQFS_MAGIC);
	ff_put_le32(out + 4, sb->inode_count);
	ff_put_le32(out + 8, sb->mod_time);
	ff_put_le32(out + 12, sb->block_size);
	ff_put_le32(out + 16, sb->fragment_count);
	ff_put_le16(out + 20, sb->compressor);
	ff_put_le16(out + 22, sb->block_log);
	ff_put_le16(out + 24, sb->flags);
	ff_put_le16(out + 26, sb->id_count);
	ff_put_le16(out + 28, SQFS_VERSION_MAJOR);
	ff_put_le16(out + 30, SQFS_VERSION_MINOR);
	ff_put_le64(out + 32, sb->root_inode);
	ff_put_le64(out + 40, sb->bytes_used);
	ff_put_le64(out + 48, sb->id_table);
	ff_put_le64(out + 56, sb->xattr_id_table);
	ff_put_le64(out + 64, sb->inode_table);
	ff_put_le64(out + 72, sb->dir_table);
	ff_put_le64(out + 80, sb->fragment_table);
	ff_put_le64(out + 88, sb->export_table);
}

static int check_block_size(const struct sqfs_super *sb, struct ff_err *err)
{
	if (sb->block_size < SQFS_BLOCK_MIN || sb->block_size > SQFS_BLOCK_MAX ||
	    (sb->block_size & (sb->block_size - 1)))
		return ff_err_set(err, EINVAL,
				  "superblock: block size %u is not a power of two in 4096..1048576",
				  sb->block_size);
	if (sb->block_log > 20 || (1u << sb->block_log) != sb->block_size)
		return ff_err_set(err, EINVAL,
				  "superblock: block_log %u does not match block size %u",
				  sb->block_log, sb->block_size);
	return 0;
}

static int all_zero(const uint8_t *p, size_t n)
{
	while (n && !*p) {
		p++;
		n--;
	}
	return n == 0;
}

int sqfs_magic_order(const uint8_t *buf, size_t len)
{
	if (len < 4)
		return -1;
	if (ff_get_le32(buf) == SQFS_MAGIC)
		return SQFS_LE;
	return ff_get_be32(buf) == SQFS_MAGIC ? SQFS_BE : -1;
}

int sqfs_super_decode(const uint8_t in[SQFS_SUPER_SIZE], struct sqfs_super *sb,
		      struct ff_err *err)
{
	int order = sqfs_magic_order(in, SQFS_SUPER_SIZE);
	enum sqfs_order o = order == SQFS_BE ? SQFS_BE : SQFS_LE;
	uint16_t major = sqfs_get16(in + 28, o), minor = sqfs_get16(in + 30, o);

	if (order < 0)
		return ff_err_set(err, EINVAL, "superblock: bad magic 0x%08x (want 0x%08x)",
				  ff_get_le32(in), SQFS_MAGIC);
	/* Firmware carries placeholders: the magic and nothing else. */
	if (all_zero(in + 4, SQFS_SUPER_SIZE - 4))
		return ff_err_set(err, EINVAL, "superblock: every byte after the magic is zero (a placeholder, not a file system)");
	if (major != SQFS_VERSION_MAJOR || minor != SQFS_VERSION_MINOR)
		return ff_err_set(err, EINVAL, "superblock: version %u.%u (%s-endian), only 4.0 is supported",
				  major, minor, o == SQFS_BE ? "big" : "little");
	sb->order = o;
	sb->inode_count = sqfs_get32(in + 4, o);
	sb->mod_time = sqfs_get32(in + 8, o);
	sb->block_size = sqfs_get32(in + 12, o);
	sb->fragment_count = sqfs_get32(in + 16, o);
	sb->compressor = sqfs_get16(in + 20, o);
	sb->block_log = sqfs_get16(in + 22, o);
	sb->flags = sqfs_get16(in + 24, o);
	sb->id_count = sqfs_get16(in + 26, o);
	sb->root_inode = sqfs_get64(in + 32, o);
	sb->bytes_used = sqfs_get64(in + 40, o);
	sb->id_table = sqfs_get64(in + 48, o);
	sb->xattr_id_table = sqfs_get64(in + 56, o);
	sb->inode_table = sqfs_get64(in + 64, o);
	sb->dir_table = sqfs_get64(in + 72, o);
	sb->fragment_table = sqfs_get64(in + 80, o);
	sb->export_table = sqfs_get64(in + 88, o);
	if (check_block_size(sb, err) < 0)
		return -1;
	if (sb->inode_count == 0)
		return ff_err_set(err, EINVAL, "superblock: inode count is 0");
	if (sb->id_count == 0)
		return ff_err_set(err, EINVAL, "superblock: id count is 0");
	if (sb->bytes_used < SQFS_SUPER_SIZE)
		return ff_err_set(err, EINVAL, "superblock: bytes_used %llu is smaller than the superblock",
				  (unsigned long long)sb->bytes_used);
	return 0;
}
