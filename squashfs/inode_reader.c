/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inodes by reference: the fixed part is decoded by inode.c; this file
 * finds it in the inode table, checks what the rest of the reader relies
 * on, and turns it into a struct ff_stat. */
#include <errno.h>
#include <sys/stat.h>

#include "squashfs/fs_reader.h"

#define INODE_MAX_FIXED 64
#define SYMLINK_MAX 4096

static int check_node(struct sqfs_rd *rd, struct sqfs_node *n, struct ff_err *err)
{
	const struct sqfs_inode *in = &n->in;

	if (in->inode_number > rd->sb.inode_count)
		return ff_err_set(err, EIO, "inode %u: number above the inode count %u",
				  in->inode_number, rd->sb.inode_count);
	if (in->uid_idx >= rd->sb.id_count || in->gid_idx >= rd->sb.id_count)
		return ff_err_set(err, EIO, "inode %u: uid/gid index %u/%u outside id table (%u)",
				  in->inode_number, in->uid_idx, in->gid_idx, rd->sb.id_count);
	if (in->xattr_idx != SQFS_INVALID_XATTR && in->xattr_idx >= rd->xattr_count)
		return ff_err_set(err, EIO, "inode %u: xattr index %u outside xattr table (%u)",
				  in->inode_number, in->xattr_idx, rd->xattr_count);
	switch (sqfs_basic_type(in->type)) {
	case SQFS_FILE:
		if (in->frag_index != SQFS_INVALID_FRAG && in->frag_index >= rd->sb.fragment_count)
			return ff_err_set(err, EIO, "inode %u: fragment %u outside fragment table (%u)",
					  in->inode_number, in->frag_index,
					  rd->sb.fragment_count);
		if (in->blocks_start > rd->size)
			return ff_err_set(err, EIO,
					  "inode %u: block list points past end of image (offset %llu > size %llu)",
					  in->inode_number, (unsigned long long)in->blocks_start,
					  (unsigned long long)rd->size);
		break;
	case SQFS_SYMLINK:
		if (in->target_size == 0 || in->target_size > SYMLINK_MAX)
			return ff_err_set(err, EIO, "inode %u: symlink target length %u not in 1..%u",
					  in->inode_number, in->target_size, SYMLINK_MAX);
		break;
	case SQFS_DIR:
		if (in->dir_size < 3)
			return ff_err_set(err, EIO, "inode %u: directory size %u < 3",
					  in->inode_number, in->dir_size);
		if (in->dir_offset >= SQFS_META_SIZE ||
		    in->dir_block >= rd->dir_end - rd->sb.dir_table)
			return ff_err_set(err, EIO,
					  "inode %u: directory listing at block %u offset %u outside the directory table",
					  in->inode_number, in->dir_block, in->dir_offset);
		break;
	}
	return 0;
}

int sqfs_node_load(struct sqfs_rd *rd, uint64_t ref, struct sqfs_node *n, struct ff_err *err)
{
	uint8_t buf[INODE_MAX_FIXED];
	size_t fixed;

	n->ref = ref;
	n->tail.block = rd->sb.inode_table + sqfs_ref_block(ref);
	n->tail.offset = sqfs_ref_offset(ref);
	n->tail.limit = rd->inode_end;
	if (sqfs_ref_block(ref) >= rd->inode_end - rd->sb.inode_table ||
	    n->tail.offset >= SQFS_META_SIZE)
		return ff_err_set(err, EIO, "inode reference 0x%llx outside the inode table",
				  (unsigned long long)ref);
	if (sqfs_meta_read(rd, &n->tail, buf, 16, err) < 0)
		return ff_err_prefix(err, "inode reference 0x%llx", (unsigned long long)ref);
	fixed = sqfs_inode_fixed_size(sqfs_get16(buf, rd->sb.order));
	if (!fixed)
		return ff_err_set(err, EIO, "inode reference 0x%llx: unknown type %u",
				  (unsigned long long)ref, sqfs_get16(buf, rd->sb.order));
	if (sqfs_meta_read(rd, &n->tail, buf + 16, fixed - 16, err) < 0 ||
	    sqfs_inode_decode_fixed(buf, fixed, rd->sb.order, &n->in, err) < 0)
		return ff_err_prefix(err, "inode reference 0x%llx", (unsigned long long)ref);
	if (n->in.type == SQFS_LSYMLINK) {
		/* the xattr index sits after the target */
		struct sqfs_mpos p = n->tail;

		if (n->in.target_size > SYMLINK_MAX)
			return ff_err_set(err, EIO, "inode %u: symlink target length %u > %u",
					  n->in.inode_number, n->in.target_size, SYMLINK_MAX);
		if (sqfs_meta_read(rd, &p, NULL, n->in.target_size, err) < 0 ||
		    sqfs_meta_read(rd, &p, buf, 4, err) < 0)
			return ff_err_prefix(err, "inode %u", n->in.inode_number);
		n->in.xattr_idx = sqfs_get32(buf, rd->sb.order);
	}
	return check_node(rd, n, err);
}

uint32_t sqfs_node_mode(const struct sqfs_node *n)
{
	static const uint32_t fmt[] = {0, S_IFDIR, S_IFREG, S_IFLNK, S_IFBLK, S_IFCHR,
				       S_IFIFO, S_IFSOCK};

	return fmt[sqfs_basic_type(n->in.type)] | n->in.mode;
}

int sqfs_node_stat(struct sqfs_rd *rd, const struct sqfs_node *n, struct ff_stat *st,
		   struct ff_err *err)
{
	const struct sqfs_inode *in = &n->in;
	int t = sqfs_basic_type(in->type);

	*st = (struct ff_stat){0};
	st->ino = in->inode_number;
	st->mode = sqfs_node_mode(n);
	st->nlink = in->nlink;
	if (sqfs_id_get(rd, in->uid_idx, &st->uid, err) < 0 ||
	    sqfs_id_get(rd, in->gid_idx, &st->gid, err) < 0)
		return -1;
	st->mtime = st->atime = st->ctime = in->mtime;
	if (t == SQFS_FILE) {
		st->size = in->file_size;
		st->blocks = (in->file_size - (in->sparse < in->file_size ? in->sparse : 0) + 511) / 512;
	} else if (t == SQFS_SYMLINK) {
		st->size = in->target_size;
	} else if (t == SQFS_DIR) {
		st->size = in->dir_size;
	} else if (t == SQFS_BLKDEV || t == SQFS_CHRDEV) {
		st->rdev_major = sqfs_dev_major(in->rdev);
		st->rdev_minor = sqfs_dev_minor(in->rdev);
	}
	return 0;
}

static int skip_dir_index(struct sqfs_rd *rd, struct sqfs_node *n, struct ff_err *err)
{
	uint8_t raw[SQFS_DIR_INDEX_SIZE];
	struct sqfs_dir_index x;
	uint32_t i;

	for (i = 0; i < n->in.index_count; i++)
		if (sqfs_meta_read(rd, &n->tail, raw, sizeof(raw), err) < 0 ||
		    sqfs_dir_index_decode(raw, rd->sb.order, &x, err) < 0 ||
		    sqfs_meta_read(rd, &n->tail, NULL, x.name_len, err) < 0)
			return ff_err_prefix(err, "inode %u: directory index %u",
					     n->in.inode_number, i);
	return 0;
}

int sqfs_node_skip_tail(struct sqfs_rd *rd, struct sqfs_node *n, struct ff_err *err)
{
	switch (n->in.type) {
	case SQFS_FILE: case SQFS_LFILE: {
		uint64_t count = sqfs_inode_block_count(&n->in, rd->sb.block_size);

		if (count * 4 > SQFS_META_SIZE * (rd->inode_end - rd->sb.inode_table))
			return ff_err_set(err, EIO, "inode %u: %llu blocks cannot fit the inode table",
					  n->in.inode_number, (unsigned long long)count);
		return sqfs_meta_read(rd, &n->tail, NULL, count * 4, err);
	}
	case SQFS_SYMLINK:
		return sqfs_meta_read(rd, &n->tail, NULL, n->in.target_size, err);
	case SQFS_LSYMLINK:
		return sqfs_meta_read(rd, &n->tail, NULL, n->in.target_size + 4u, err);
	case SQFS_LDIR:
		return skip_dir_index(rd, n, err);
	default:
		return 0;
	}
}
