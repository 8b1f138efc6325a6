/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inodes of layouts 1.x, 2.x and 3.x: bit-packed headers in the inode
 * table, found by a reference (block << 16 | offset).  The positions
 * below are bits from the start of each structure, the same numbers for
 * both byte orders (bits.c turns them into values).
 *
 * 1.x stores no mtime but for files and directories, no inode number nor
 * link count, and only 4 bits of uid index: the index's upper bits ride in
 * the type (type = 1 + kind - 1 + 5 * (uid_index / 16)), and fifos and
 * sockets share type 0 with their kind and the upper uid bits after.
 * 2.x widens the ids to 8 bits and adds fragments and long directories;
 * 3.x adds mtime, inode number and link count to every inode and 64-bit
 * file positions.  A gid index of all ones (15 in 1.x, 255 later) means
 * "the same as the uid". */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "squashfs_legacy/legacy.h"

#define HDR_MAX 40

uint32_t lsq_mode_of_type(int type)
{
	switch (type) {
	case LSQ_DIR: case LSQ_LDIR: return S_IFDIR;
	case LSQ_FILE: case LSQ_LREG: return S_IFREG;
	case LSQ_SYMLINK: return S_IFLNK;
	case LSQ_BLKDEV: return S_IFBLK;
	case LSQ_CHRDEV: return S_IFCHR;
	case LSQ_FIFO: return S_IFIFO;
	case LSQ_SOCKET: return S_IFSOCK;
	default: return 0;
	}
}

/* Bytes of each type's fixed header, by major version (index = type). */
static const uint8_t hdr_len[4][10] = {
	[1] = {4, 14, 15, 5, 5, 5, 0, 0, 0, 0},
	[2] = {0, 15, 24, 6, 6, 6, 4, 4, 18, 0},
	[3] = {0, 28, 32, 18, 18, 18, 16, 16, 31, 40},
};

/* 1.x: the type also carries the uid index's upper bits. */
static void decode_1(const struct lsq_rd *rd, const uint8_t *h, struct lsq_inode *in)
{
	int big = rd->sb.big;
	unsigned raw = (unsigned)lsq_bits(h, 0, 4, big), uid = (unsigned)lsq_bits(h, 16, 4, big);

	in->gid_idx = (uint32_t)lsq_bits(h, 20, 4, big);
	if (in->gid_idx == 15)
		in->gid_idx = UINT32_MAX;
	if (raw == LSQ_IPC) {
		in->type = lsq_bits(h, 24, 4, big) == LSQ_SOCKET ? LSQ_SOCKET : LSQ_FIFO;
		in->uid_idx = (uint32_t)lsq_bits(h, 28, 4, big) * 16 + uid;
		return;
	}
	in->type = (int)((raw - 1) % 5 + 1);
	in->uid_idx = (raw - 1) / 5 * 16 + uid;
	switch (in->type) {
	case LSQ_DIR:
		in->size = lsq_bits(h, 24, 19, big);
		in->offset = (uint32_t)lsq_bits(h, 43, 13, big);
		in->mtime = lsq_sbits(h, 56, 32, big);
		in->start = lsq_bits(h, 88, 24, big);
		break;
	case LSQ_FILE:
		in->mtime = lsq_sbits(h, 24, 32, big);
		in->start = lsq_bits(h, 56, 32, big);
		in->size = lsq_bits(h, 88, 32, big);
		break;
	case LSQ_SYMLINK: in->size = lsq_bits(h, 24, 16, big); break;
	default: in->rdev = (uint32_t)lsq_bits(h, 24, 16, big); break;
	}
}

static void decode_2(const struct lsq_rd *rd, const uint8_t *h, struct lsq_inode *in)
{
	int big = rd->sb.big;

	switch (in->stored_type) {
	case LSQ_DIR:
		in->size = lsq_bits(h, 32, 19, big);
		in->offset = (uint32_t)lsq_bits(h, 51, 13, big);
		in->mtime = lsq_sbits(h, 64, 32, big);
		in->start = lsq_bits(h, 96, 24, big);
		break;
	case LSQ_LDIR:
		in->size = lsq_bits(h, 32, 27, big);
		in->offset = (uint32_t)lsq_bits(h, 59, 13, big);
		in->mtime = lsq_sbits(h, 72, 32, big);
		in->start = lsq_bits(h, 104, 24, big);
		in->i_count = (uint32_t)lsq_bits(h, 128, 16, big);
		break;
	case LSQ_FILE:
		in->mtime = lsq_sbits(h, 32, 32, big);
		in->start = lsq_bits(h, 64, 32, big);
		in->fragment = (uint32_t)lsq_bits(h, 96, 32, big);
		in->offset = (uint32_t)lsq_bits(h, 128, 32, big);
		in->size = lsq_bits(h, 160, 32, big);
		break;
	case LSQ_SYMLINK: in->size = lsq_bits(h, 32, 16, big); break;
	case LSQ_BLKDEV: case LSQ_CHRDEV: in->rdev = (uint32_t)lsq_bits(h, 32, 16, big); break;
	default: break;
	}
}

static void decode_3_dir(int big, const uint8_t *h, struct lsq_inode *in)
{
	if (in->stored_type == LSQ_DIR) {
		in->size = lsq_bits(h, 128, 19, big);
		in->offset = (uint32_t)lsq_bits(h, 147, 13, big);
		in->start = lsq_bits(h, 160, 32, big);
		in->parent = (uint32_t)lsq_bits(h, 192, 32, big);
		return;
	}
	in->size = lsq_bits(h, 128, 27, big);
	in->offset = (uint32_t)lsq_bits(h, 155, 13, big);
	in->start = lsq_bits(h, 168, 32, big);
	in->i_count = (uint32_t)lsq_bits(h, 200, 16, big);
	in->parent = (uint32_t)lsq_bits(h, 216, 32, big);
}

static void decode_3(const struct lsq_rd *rd, const uint8_t *h, struct lsq_inode *in)
{
	int big = rd->sb.big;

	in->mtime = lsq_sbits(h, 32, 32, big);
	in->ino = (uint32_t)lsq_bits(h, 64, 32, big);
	if (in->stored_type != LSQ_FILE)
		in->nlink = (uint32_t)lsq_bits(h, 96, 32, big);
	switch (in->stored_type) {
	case LSQ_DIR: case LSQ_LDIR: decode_3_dir(big, h, in); break;
	case LSQ_FILE:
		in->nlink = 1;
		in->start = lsq_bits(h, 96, 64, big);
		in->fragment = (uint32_t)lsq_bits(h, 160, 32, big);
		in->offset = (uint32_t)lsq_bits(h, 192, 32, big);
		in->size = lsq_bits(h, 224, 32, big);
		break;
	case LSQ_LREG:
		in->start = lsq_bits(h, 128, 64, big);
		in->fragment = (uint32_t)lsq_bits(h, 192, 32, big);
		in->offset = (uint32_t)lsq_bits(h, 224, 32, big);
		in->size = lsq_bits(h, 256, 64, big);
		break;
	case LSQ_SYMLINK: in->size = lsq_bits(h, 128, 16, big); break;
	case LSQ_BLKDEV: case LSQ_CHRDEV: in->rdev = (uint32_t)lsq_bits(h, 128, 16, big); break;
	default: break;
	}
}

/* The stored type, before reading the rest (1.x folds it, see above). */
static int stored_type(const struct lsq_rd *rd, const uint8_t *h)
{
	unsigned raw = (unsigned)lsq_bits(h, 0, 4, rd->sb.big);

	if (rd->sb.major == 1)
		return raw == LSQ_IPC ? LSQ_IPC : (int)((raw - 1) % 5 + 1);
	return (int)raw;
}

static int resolve_ids(const struct lsq_rd *rd, struct lsq_inode *in, struct ff_err *err)
{
	if (in->uid_idx >= rd->sb.no_uids)
		return ff_err_set(err, EIO, "inode %llu: uid index %u past the uid table (%u)",
				  (unsigned long long)in->ref, in->uid_idx, rd->sb.no_uids);
	in->uid = rd->uids[in->uid_idx];
	if (in->gid_idx == UINT32_MAX) {
		in->gid = in->uid;
		return 0;
	}
	if (in->gid_idx >= rd->sb.no_guids)
		return ff_err_set(err, EIO, "inode %llu: gid index %u past the gid table (%u)",
				  (unsigned long long)in->ref, in->gid_idx, rd->sb.no_guids);
	in->gid = rd->gids[in->gid_idx];
	return 0;
}

static int check_fields(const struct lsq_rd *rd, struct lsq_inode *in, struct ff_err *err)
{
	const struct lsq_super *sb = &rd->sb;

	if (sb->major == 3 && (in->ino == 0 || in->ino > sb->inodes))
		return ff_err_set(err, EIO, "inode %llu: inode number %u outside 1..%u",
				  (unsigned long long)in->ref, in->ino, sb->inodes);
	if (in->type == LSQ_DIR &&
	    (in->start >= rd->dir_end - sb->dir_table || in->offset >= LSQ_META_SIZE ||
	     (sb->major == 3 && in->size < 3)))
		return ff_err_set(err, EIO, "inode %llu: directory listing at %llu:%u (%llu bytes) "
				  "outside the directory table (%llu bytes)",
				  (unsigned long long)in->ref, (unsigned long long)in->start,
				  in->offset, (unsigned long long)in->size,
				  (unsigned long long)(rd->dir_end - sb->dir_table));
	if (in->type == LSQ_FILE && in->start > sb->inode_table)
		return ff_err_set(err, EIO, "inode %llu: data at offset %llu past the data area "
				  "(%llu bytes)", (unsigned long long)in->ref,
				  (unsigned long long)in->start,
				  (unsigned long long)sb->inode_table);
	return resolve_ids(rd, in, err);
}

static int decode(struct lsq_rd *rd, const uint8_t *h, struct lsq_inode *in, struct ff_err *err)
{
	int big = rd->sb.big;

	in->mode = (uint32_t)lsq_bits(h, 4, 12, big);
	in->mtime = rd->sb.mkfs_time;
	in->fragment = LSQ_INVALID_FRAG;
	if (rd->sb.major == 1) {
		decode_1(rd, h, in);
	} else {
		in->uid_idx = (uint32_t)lsq_bits(h, 16, 8, big);
		in->gid_idx = (uint32_t)lsq_bits(h, 24, 8, big);
		if (in->gid_idx == 255)
			in->gid_idx = UINT32_MAX;
		in->type = in->stored_type == LSQ_LDIR ? LSQ_DIR
			 : in->stored_type == LSQ_LREG ? LSQ_FILE : in->stored_type;
		if (rd->sb.major == 2)
			decode_2(rd, h, in);
		else
			decode_3(rd, h, in);
	}
	in->mode |= lsq_mode_of_type(in->type);
	return check_fields(rd, in, err);
}

int lsq_inode_load(struct lsq_rd *rd, uint64_t ref, struct lsq_inode *in, struct ff_err *err)
{
	uint8_t h[HDR_MAX] = {0};
	struct lsq_mpos p = {rd->sb.inode_table + (ref >> 16), (uint32_t)(ref & 0xffff),
			     rd->sb.dir_table};
	unsigned len;

	memset(in, 0, sizeof(*in));
	in->ref = ref;
	if ((ref >> 16) >= rd->sb.dir_table - rd->sb.inode_table || p.offset >= LSQ_META_SIZE)
		return ff_err_set(err, EIO, "inode reference %llu:%u outside the inode table",
				  (unsigned long long)(ref >> 16), p.offset);
	in->tail = p;
	if (lsq_meta_read(rd, &in->tail, h, 4, err) < 0)
		return -1;
	in->stored_type = stored_type(rd, h);
	len = in->stored_type <= LSQ_LREG ? hdr_len[rd->sb.major][in->stored_type] : 0;
	if (!len)
		return ff_err_set(err, EIO, "inode %llu: type %d is not a SquashFS %u.x inode type",
				  (unsigned long long)ref, in->stored_type, rd->sb.major);
	in->tail = p;
	if (lsq_meta_read(rd, &in->tail, h, len, err) < 0)
		return -1;
	return decode(rd, h, in, err);
}

uint64_t lsq_dir_bytes(const struct lsq_rd *rd, const struct lsq_inode *in)
{
	return rd->sb.major == 3 ? in->size - 3 : in->size;
}

uint64_t lsq_file_blocks(const struct lsq_rd *rd, const struct lsq_inode *in)
{
	uint64_t bs = rd->sb.block_size;

	if (in->fragment != LSQ_INVALID_FRAG)
		return in->size / bs;
	return (in->size + bs - 1) / bs;
}

uint64_t lsq_inode_number(const struct lsq_rd *rd, const struct lsq_inode *in)
{
	if (rd->sb.major == 3)
		return in->ino;
	/* Unique: a block's payload is under 2^13 bytes. */
	return ((in->ref >> 16) << 13 | (in->ref & 0x1fff)) + 1;
}
