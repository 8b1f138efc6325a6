/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inode fixed parts.  Every inode starts with the same 16-byte header
 * (type, mode, uid/gid index, mtime, inode number); the rest depends on the
 * type.  Offsets below are from the start of the inode. */
#include <errno.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "squashfs/format.h"

#define HDR 16

int sqfs_type_from_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return SQFS_DIR;
	case S_IFREG: return SQFS_FILE;
	case S_IFLNK: return SQFS_SYMLINK;
	case S_IFBLK: return SQFS_BLKDEV;
	case S_IFCHR: return SQFS_CHRDEV;
	case S_IFIFO: return SQFS_FIFO;
	default: return SQFS_SOCKET;
	}
}

size_t sqfs_inode_fixed_size(int type)
{
	switch (type) {
	case SQFS_DIR: return HDR + 16;
	case SQFS_LDIR: return HDR + 24;
	case SQFS_FILE: return HDR + 16;
	case SQFS_LFILE: return HDR + 40;
	case SQFS_SYMLINK: return HDR + 8;
	case SQFS_LSYMLINK: return HDR + 8; /* xattr index follows the target */
	case SQFS_BLKDEV: case SQFS_CHRDEV: return HDR + 8;
	case SQFS_LBLKDEV: case SQFS_LCHRDEV: return HDR + 12;
	case SQFS_FIFO: case SQFS_SOCKET: return HDR + 4;
	case SQFS_LFIFO: case SQFS_LSOCKET: return HDR + 8;
	default: return 0;
	}
}

static void encode_dir(const struct sqfs_inode *in, uint8_t *p)
{
	if (in->type == SQFS_DIR) {
		ff_put_le32(p, in->dir_block);
		ff_put_le32(p + 4, in->nlink);
		ff_put_le16(p + 8, (uint16_t)in->dir_size);
		ff_put_le16(p + 10, in->dir_offset);
		ff_put_le32(p + 12, in->parent_inode);
		return;
	}
	ff_put_le32(p, in->nlink);
	ff_put_le32(p + 4, in->dir_size);
	ff_put_le32(p + 8, in->dir_block);
	ff_put_le32(p + 12, in->parent_inode);
	ff_put_le16(p + 16, in->index_count);
	ff_put_le16(p + 18, in->dir_offset);
	ff_put_le32(p + 20, in->xattr_idx);
}

static void encode_file(const struct sqfs_inode *in, uint8_t *p)
{
	if (in->type == SQFS_FILE) {
		ff_put_le32(p, (uint32_t)in->blocks_start);
		ff_put_le32(p + 4, in->frag_index);
		ff_put_le32(p + 8, in->frag_offset);
		ff_put_le32(p + 12, (uint32_t)in->file_size);
		return;
	}
	ff_put_le64(p, in->blocks_start);
	ff_put_le64(p + 8, in->file_size);
	ff_put_le64(p + 16, in->sparse);
	ff_put_le32(p + 24, in->nlink);
	ff_put_le32(p + 28, in->frag_index);
	ff_put_le32(p + 32, in->frag_offset);
	ff_put_le32(p + 36, in->xattr_idx);
}

void sqfs_inode_encode_fixed(const struct sqfs_inode *in, uint8_t *out)
{
	uint8_t *p = out + HDR;

	ff_put_le16(out, in->type);
	ff_put_le16(out + 2, in->mode);
	ff_put_le16(out + 4, in->uid_idx);
	ff_put_le16(out + 6, in->gid_idx);
	ff_put_le32(out + 8, in->mtime);
	ff_put_le32(out + 12, in->inode_number);
	switch (in->type) {
	case SQFS_DIR: case SQFS_LDIR:
		encode_dir(in, p);
		break;
	case SQFS_FILE: case SQFS_LFILE:
		encode_file(in, p);
		break;
	case SQFS_SYMLINK: case SQFS_LSYMLINK:
		ff_put_le32(p, in->nlink);
		ff_put_le32(p + 4, in->target_size);
		break;
	case SQFS_BLKDEV: case SQFS_CHRDEV: case SQFS_LBLKDEV: case SQFS_LCHRDEV:
		ff_put_le32(p, in->nlink);
		ff_put_le32(p + 4, in->rdev);
		if (in->type >= SQFS_LDIR)
			ff_put_le32(p + 8, in->xattr_idx);
		break;
	default: /* fifo, socket */
		ff_put_le32(p, in->nlink);
		if (in->type >= SQFS_LDIR)
			ff_put_le32(p + 4, in->xattr_idx);
		break;
	}
}

static void decode_dir(const uint8_t *p, enum sqfs_order o, struct sqfs_inode *in)
{
	if (in->type == SQFS_DIR) {
		in->dir_block = sqfs_get32(p, o);
		in->nlink = sqfs_get32(p + 4, o);
		in->dir_size = sqfs_get16(p + 8, o);
		in->dir_offset = sqfs_get16(p + 10, o);
		in->parent_inode = sqfs_get32(p + 12, o);
		return;
	}
	in->nlink = sqfs_get32(p, o);
	in->dir_size = sqfs_get32(p + 4, o);
	in->dir_block = sqfs_get32(p + 8, o);
	in->parent_inode = sqfs_get32(p + 12, o);
	in->index_count = sqfs_get16(p + 16, o);
	in->dir_offset = sqfs_get16(p + 18, o);
	in->xattr_idx = sqfs_get32(p + 20, o);
}

static void decode_file(const uint8_t *p, enum sqfs_order o, struct sqfs_inode *in)
{
	in->nlink = 1;
	if (in->type == SQFS_FILE) {
		in->blocks_start = sqfs_get32(p, o);
		in->frag_index = sqfs_get32(p + 4, o);
		in->frag_offset = sqfs_get32(p + 8, o);
		in->file_size = sqfs_get32(p + 12, o);
		return;
	}
	in->blocks_start = sqfs_get64(p, o);
	in->file_size = sqfs_get64(p + 8, o);
	in->sparse = sqfs_get64(p + 16, o);
	in->nlink = sqfs_get32(p + 24, o);
	in->frag_index = sqfs_get32(p + 28, o);
	in->frag_offset = sqfs_get32(p + 32, o);
	in->xattr_idx = sqfs_get32(p + 36, o);
}

static void decode_other(const uint8_t *p, enum sqfs_order o, struct sqfs_inode *in)
{
	in->nlink = sqfs_get32(p, o);
	switch (in->type) {
	case SQFS_SYMLINK: case SQFS_LSYMLINK:
		in->target_size = sqfs_get32(p + 4, o);
		break;
	case SQFS_BLKDEV: case SQFS_CHRDEV:
		in->rdev = sqfs_get32(p + 4, o);
		break;
	case SQFS_LBLKDEV: case SQFS_LCHRDEV:
		in->rdev = sqfs_get32(p + 4, o);
		in->xattr_idx = sqfs_get32(p + 8, o);
		break;
	case SQFS_LFIFO: case SQFS_LSOCKET:
		in->xattr_idx = sqfs_get32(p + 4, o);
		break;
	default:
		break;
	}
}

int sqfs_inode_decode_fixed(const uint8_t *buf, size_t len, enum sqfs_order o,
			    struct sqfs_inode *in, struct ff_err *err)
{
	size_t need;

	if (len < 2)
		return ff_err_set(err, EINVAL, "inode: truncated header");
	*in = (struct sqfs_inode){0};
	in->type = sqfs_get16(buf, o);
	need = sqfs_inode_fixed_size(in->type);
	if (!need)
		return ff_err_set(err, EINVAL, "inode: unknown type %u", in->type);
	if (len < need)
		return ff_err_set(err, EINVAL, "inode: type %u needs %zu bytes, have %zu", in->type,
				  need, len);
	in->mode = sqfs_get16(buf + 2, o);
	in->uid_idx = sqfs_get16(buf + 4, o);
	in->gid_idx = sqfs_get16(buf + 6, o);
	in->mtime = sqfs_get32(buf + 8, o);
	in->inode_number = sqfs_get32(buf + 12, o);
	in->xattr_idx = SQFS_INVALID_XATTR;
	in->frag_index = SQFS_INVALID_FRAG;
	if (in->type == SQFS_DIR || in->type == SQFS_LDIR)
		decode_dir(buf + HDR, o, in);
	else if (in->type == SQFS_FILE || in->type == SQFS_LFILE)
		decode_file(buf + HDR, o, in);
	else
		decode_other(buf + HDR, o, in);
	if (in->inode_number == 0)
		return ff_err_set(err, EINVAL, "inode: inode number 0");
	if (in->mode & ~07777u)
		return ff_err_set(err, EINVAL, "inode %u: permission field 0%o has type bits",
				  in->inode_number, in->mode);
	return 0;
}

uint64_t sqfs_inode_block_count(const struct sqfs_inode *in, uint32_t block_size)
{
	uint64_t full = in->file_size / block_size;

	if (in->file_size % block_size && in->frag_index == SQFS_INVALID_FRAG)
		full++;
	return full;
}

int sqfs_inode_needs_extended(const struct sqfs_inode *in)
{
	switch (sqfs_basic_type(in->type)) {
	case SQFS_DIR:
		return in->xattr_idx != SQFS_INVALID_XATTR || in->index_count ||
		       in->dir_size > 0xffff;
	case SQFS_FILE:
		return in->xattr_idx != SQFS_INVALID_XATTR || in->nlink > 1 || in->sparse ||
		       in->file_size > 0xffffffffull || in->blocks_start > 0xffffffffull;
	default:
		return in->xattr_idx != SQFS_INVALID_XATTR;
	}
}
