/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The CramFS superblock: finding it, decoding it, the checks the kernel
 * makes before it mounts, and the image CRC (zlib's crc32, which is the
 * one mkfs.cramfs and fsck.cramfs use). */
#include "cramfs/super.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "common/endian.h"

int cr_magic_at(const uint8_t *p, int *big)
{
	if (ff_get_le32(p) == CR_MAGIC)
		*big = 0;
	else if (ff_get_be32(p) == CR_MAGIC)
		*big = 1;
	else
		return 0;
	return 1;
}

void cr_super_decode(const uint8_t *b, int big, uint32_t start, struct cr_super *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->start = start;
	sb->big = big;
	sb->size = ff_get32(b + 4, big);
	sb->flags = ff_get32(b + 8, big);
	sb->future = ff_get32(b + 12, big);
	memcpy(sb->signature, b + 16, 16);
	sb->crc = ff_get32(b + 32, big);
	sb->edition = ff_get32(b + 36, big);
	sb->blocks = ff_get32(b + 40, big);
	sb->files = ff_get32(b + 44, big);
	memcpy(sb->name, b + 48, 16);
	cr_inode_decode(b + CR_ROOT_AT, big, &sb->root);
}

void cr_super_encode(const struct cr_super *sb, uint8_t *b)
{
	ff_put32(b, CR_MAGIC, sb->big);
	ff_put32(b + 4, sb->size, sb->big);
	ff_put32(b + 8, sb->flags, sb->big);
	ff_put32(b + 12, sb->future, sb->big);
	memcpy(b + 16, sb->signature, 16);
	ff_put32(b + 32, sb->crc, sb->big);
	ff_put32(b + 36, sb->edition, sb->big);
	ff_put32(b + 40, sb->blocks, sb->big);
	ff_put32(b + 44, sb->files, sb->big);
	memcpy(b + 48, sb->name, 16);
	cr_inode_encode(&sb->root, sb->big, b + CR_ROOT_AT);
}

uint64_t cr_super_span(const struct cr_super *sb, uint64_t src_size)
{
	return sb->flags & CR_FLAG_FSID_V2 ? sb->size : src_size;
}

/* Superblock at 0, else at 512 (room for boot code, mkfs.cramfs -p):
 * where the kernel and fsck.cramfs look. */
static int find(struct ff_bsrc *src, uint8_t *b, uint32_t *start, int *big,
		struct ff_err *err)
{
	static const uint32_t at[] = { 0, CR_PAD_SIZE };

	for (size_t i = 0; i < 2; i++) {
		if (src->size < at[i] + CR_SUPER_SIZE)
			break;
		if (ff_bsrc_read(src, b, CR_SUPER_SIZE, at[i], err))
			return -1;
		if (cr_magic_at(b, big)) {
			*start = at[i];
			return 0;
		}
	}
	if (src->size < CR_SUPER_SIZE)
		return ff_err_set(err, EINVAL, "%llu bytes: too short for a CramFS superblock (%u)",
				  (unsigned long long)src->size, CR_SUPER_SIZE);
	return ff_err_set(err, EINVAL, "no CramFS magic at offset 0 or 512");
}

/* The root offset the kernel takes: the listing right after the
 * superblock, unless the image says it put something between them. */
static int check_root(const struct cr_super *sb, struct ff_err *err)
{
	uint32_t off = sb->root.offset;

	if (!S_ISDIR(sb->root.mode))
		return ff_err_set(err, EINVAL, "superblock: root inode is not a directory (mode 0%o)",
				  sb->root.mode);
	if (off && !(sb->flags & CR_FLAG_SHIFTED_ROOT) && off != CR_SUPER_SIZE &&
	    off != CR_PAD_SIZE + CR_SUPER_SIZE)
		return ff_err_set(err, EINVAL, "superblock: bad root offset %u (expected %u or %u)",
				  off, CR_SUPER_SIZE, CR_PAD_SIZE + CR_SUPER_SIZE);
	return 0;
}

static int check_sizes(const struct cr_super *sb, uint64_t src_size, struct ff_err *err)
{
	if (!(sb->flags & CR_FLAG_FSID_V2))
		return 0;
	if (sb->size < sb->start + CR_SUPER_SIZE)
		return ff_err_set(err, EINVAL, "superblock: size %u ends before the superblock (%u)",
				  sb->size, sb->start + CR_SUPER_SIZE);
	if (sb->size > src_size)
		return ff_err_set(err, EIO, "image cut short: superblock size %u, %llu bytes present",
				  sb->size, (unsigned long long)src_size);
	if (sb->files == 0)
		return ff_err_set(err, EINVAL, "superblock: file count is 0");
	return 0;
}

int cr_super_read(struct ff_bsrc *src, struct cr_super *sb, struct ff_err *err)
{
	uint8_t b[CR_SUPER_SIZE];
	uint32_t start = 0;
	int big = 0;

	if (find(src, b, &start, &big, err))
		return -1;
	cr_super_decode(b, big, start, sb);
	if (sb->flags & ~CR_FLAGS_SUPPORTED)
		return ff_err_set(err, ENOTSUP, "superblock: unknown feature flags 0x%x",
				  sb->flags & ~CR_FLAGS_SUPPORTED);
	if (check_root(sb, err) || check_sizes(sb, src->size, err))
		return -1;
	return 0;
}

int cr_super_crc(struct ff_bsrc *src, const struct cr_super *sb, uint32_t *crc,
		 struct ff_err *err)
{
	size_t cap = 1 << 16;
	uint8_t *buf = malloc(cap);
	uint64_t off = sb->start, end = sb->size;
	uLong c = crc32(0L, Z_NULL, 0);

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	while (off < end) {
		size_t n = end - off < cap ? (size_t)(end - off) : cap;

		if (ff_bsrc_read(src, buf, n, off, err)) {
			free(buf);
			return -1;
		}
		if (off == sb->start) /* the CRC field counts as 0 */
			memset(buf + CR_CRC_AT, 0, 4);
		c = crc32(c, buf, (uInt)n);
		off += n;
	}
	free(buf);
	*crc = (uint32_t)c;
	return 0;
}
