/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The inode table.  Inodes are written bottom-up: a directory's listing
 * needs the references of its children's inodes, and its own inode needs
 * the listing's position, so each directory comes after its subtree and
 * the root comes last.  Numbers are given in a first pass, so a directory
 * inode can name its parent before the parent is written; the root gets
 * the highest.  Order and numbering are mksquashfs' own, so for the same
 * tree and codec both tools write the same metadata.  A hard link group
 * has one inode, written where its first name is met. */
#include "squashfs/inode_table_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "squashfs/format.h"

static uint32_t clamp_time(int64_t t)
{
	return t < 0 ? 0 : t > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)t;
}

static void fill_common(const struct sqfs_inode_writer *w, const struct ff_node *n,
			struct sqfs_inode *in)
{
	in->mode = (uint16_t)(n->mode & 07777);
	in->uid_idx = sqfs_id_table_index(w->ids, n->uid);
	in->gid_idx = sqfs_id_table_index(w->ids, n->gid);
	in->mtime = clamp_time(n->mtime);
	in->inode_number = sqfs_ino(n);
	in->nlink = ff_node_nlink(n);
	in->xattr_idx = w->xattr ? w->xattr[n->index] : SQFS_INVALID_XATTR;
	in->frag_index = SQFS_INVALID_FRAG;
}

static const struct sqfs_file_data *file_data(const struct sqfs_inode_writer *w,
					      const struct ff_node *n)
{
	const struct sqfs_file_data *fd = &w->fdata[n->index];

	return sqfs_fd_dup_of(fd) ? &w->fdata[sqfs_fd_dup_of(fd)] : fd;
}

/* The bytes a file's sparse blocks stand for, counted here rather than
 * kept per file (few files have any): a stored block is never 0 bytes
 * long, so a size of 0 marks a sparse one. */
static uint64_t sparse_count(const struct sqfs_inode_writer *w, const struct sqfs_file_data *fd,
			     uint64_t size)
{
	uint64_t sum = 0;

	const uint32_t *sizes = sqfs_fd_sizes(w->sizes, fd);

	for (uint32_t i = 0; i < sqfs_fd_n_blocks(w->sizes, fd); i++) {
		uint64_t left = size - (uint64_t)i * w->block_size;

		if (!sizes[i])
			sum += left < w->block_size ? left : w->block_size;
	}
	return sum < size ? sum : size - 1;
}

static void fill_type(const struct sqfs_inode_writer *w, const struct ff_node *n,
		      const struct sqfs_dir_info *di, struct sqfs_inode *in)
{
	switch (n->mode & S_IFMT) {
	case S_IFDIR:
		in->type = SQFS_DIR;
		in->dir_block = di->block;
		in->dir_offset = di->offset;
		in->dir_size = di->size;
		in->index_count = (uint16_t)di->index_count;
		in->parent_inode = n->parent ? sqfs_ino(n->parent) : w->inode_count + 1;
		break;
	case S_IFREG: {
		const struct sqfs_file_data *fd = file_data(w, n);

		in->type = SQFS_FILE;
		in->blocks_start = sqfs_fd_blocks_start(w->sizes, fd);
		in->file_size = n->size;
		/* mksquashfs: no sparse count for a host file without holes,
		 * and never more than size - 1 */
		in->sparse = n->dense ? 0 : sparse_count(w, fd, n->size);
		in->frag_index = fd->frag_index;
		in->frag_offset = sqfs_fd_frag_offset(w->sizes, fd);
		break;
	}
	case S_IFLNK:
		in->type = SQFS_SYMLINK;
		in->target_size = (uint32_t)strlen(n->target ? n->target : "");
		break;
	case S_IFBLK: case S_IFCHR:
		in->type = S_ISBLK(n->mode) ? SQFS_BLKDEV : SQFS_CHRDEV;
		in->rdev = sqfs_encode_dev(n->rdev_major, n->rdev_minor);
		break;
	default:
		in->type = S_ISFIFO(n->mode) ? SQFS_FIFO : SQFS_SOCKET;
		break;
	}
	if (sqfs_inode_needs_extended(in) || (in->type == SQFS_DIR && di->extended))
		in->type += 7;
}

/* What follows the fixed part: block sizes, target, directory index. */
static int write_tail(struct sqfs_inode_writer *w, const struct ff_node *n,
		      const struct sqfs_dir_info *di, const struct sqfs_inode *in,
		      struct ff_err *err)
{
	uint8_t b[4];

	switch (sqfs_basic_type(in->type)) {
	case SQFS_DIR:
		return sqfs_meta_write(&w->meta, di->index.data, di->index.len, err);
	case SQFS_FILE: {
		const struct sqfs_file_data *fd = file_data(w, n);

		const uint32_t *sizes = sqfs_fd_sizes(w->sizes, fd);

		for (uint32_t i = 0; i < sqfs_fd_n_blocks(w->sizes, fd); i++) {
			ff_put_le32(b, sizes[i]);
			if (sqfs_meta_write(&w->meta, b, 4, err) < 0)
				return -1;
		}
		return 0;
	}
	case SQFS_SYMLINK:
		if (sqfs_meta_write(&w->meta, n->target, in->target_size, err) < 0)
			return -1;
		if (in->type != SQFS_LSYMLINK)
			return 0;
		ff_put_le32(b, in->xattr_idx);
		return sqfs_meta_write(&w->meta, b, 4, err);
	default:
		return 0;
	}
}

static void count(struct sqfs_inode_writer *w, const struct ff_node *n)
{
	if (S_ISDIR(n->mode))
		w->n_dirs++;
	else if (S_ISLNK(n->mode))
		w->n_symlinks++;
	else if (!S_ISREG(n->mode))
		w->n_special++;
}

static int write_inode(struct sqfs_inode_writer *w, const struct ff_node *n,
		       const struct sqfs_dir_info *di, struct ff_err *err)
{
	struct sqfs_node_info *info = &w->info[n->index];
	struct sqfs_inode in = {0};
	uint8_t fixed[64];
	uint64_t ref;

	fill_common(w, n, &in);
	fill_type(w, n, di, &in);
	ref = sqfs_meta_ref(&w->meta);
	if (sqfs_ref_block(ref) > UINT32_MAX)
		return ff_err_set(err, EFBIG, "inode table: %llu bytes, above the format's 4 GiB",
				  (unsigned long long)sqfs_ref_block(ref));
	sqfs_ni_set_ref(info, ref);
	count(w, n);
	sqfs_inode_encode_fixed(&in, fixed);
	if (sqfs_meta_write(&w->meta, fixed, sqfs_inode_fixed_size(in.type), err) < 0)
		return -1;
	return write_tail(w, n, di, &in, err);
}

/* A hard-linked inode is written at the first of its names met.  The few
 * such inodes are remembered in a map rather than with a flag on every
 * node.  1 when p is to be written now, 0 when it was, -1 out of memory. */
static int first_meeting(struct sqfs_inode_writer *w, const struct ff_node *p, struct ff_err *err)
{
	uint32_t key = p->index;

	if (ff_node_nlink(p) < 2)
		return 1;
	if (ff_hmap_find(&w->linked_written, &key, sizeof(key), NULL))
		return 0;
	if (ff_hmap_set(&w->linked_written, &key, sizeof(key), 1) < 0)
		return ff_err_set(err, ENOMEM, "out of memory for hard links");
	return 1;
}

static int write_dir(struct sqfs_inode_writer *w, const struct ff_node *d, struct ff_err *err)
{
	struct sqfs_dir_info di;
	int ret;

	if (sqfs_dir_write(w->dirs, d, &di, err) < 0) {
		ff_vec_free(&di.index);
		return -1;
	}
	ret = write_inode(w, d, &di, err);
	ff_vec_free(&di.index);
	return ret;
}

/* Numbers go in name order, each directory before its subtree (pre-order),
 * as mksquashfs numbers them, so a listing's entries carry small rising
 * deltas. */
static void number(uint32_t *next_ino, const struct ff_node *d)
{
	for (uint32_t i = 0; i < d->n_children; i++) {
		const struct ff_node *c = d->children[i];

		if (!sqfs_ino(c))
			sqfs_set_ino(c, ++*next_ino);
		if (S_ISDIR(c->mode))
			number(next_ino, c);
	}
}

void sqfs_inodes_clear(const struct ff_tree *tree)
{
	for (const struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n))
		sqfs_set_ino(n, 0);
}

/* Inodes go in name order too, a subdirectory's right after its own
 * subtree: a listing's entries then sit in rising inode-table positions
 * and cross a metadata block at most once per block, so a directory needs
 * few headers.  Hard-linked names share the inode written at the first. */
static int write_subtree(struct sqfs_inode_writer *w, const struct ff_node *d, struct ff_err *err)
{
	for (uint32_t i = 0; i < d->n_children; i++) {
		const struct ff_node *c = d->children[i];
		const struct ff_node *p = ff_node_primary(c);
		int first;

		if (S_ISDIR(c->mode)) {
			if (write_subtree(w, c, err) < 0)
				return -1;
			continue;
		}
		w->n_hardlinks += ff_node_link(c) != NULL;
		first = first_meeting(w, p, err);
		if (first < 0 || (first && write_inode(w, p, NULL, err) < 0))
			return -1;
	}
	return write_dir(w, d, err);
}

uint32_t sqfs_inodes_number(const struct ff_tree *tree)
{
	const struct ff_node *root = ff_tree_root(tree);
	uint32_t next_ino = 0;

	sqfs_inodes_clear(tree);
	number(&next_ino, root);
	sqfs_set_ino(root, ++next_ino);
	return next_ino;
}

void sqfs_inode_writer_init(struct sqfs_inode_writer *w, struct ff_comp_ctx *ctx,
			    const struct ff_tree *tree, struct sqfs_node_info *info,
			    const struct sqfs_id_table *ids, struct sqfs_dir_writer *dirs,
			    uint32_t block_size, uint32_t inode_count)
{
	memset(w, 0, sizeof(*w));
	sqfs_meta_init(&w->meta, ctx);
	w->tree = tree;
	w->info = info;
	w->ids = ids;
	w->dirs = dirs;
	w->block_size = block_size;
	w->inode_count = inode_count;
}

int sqfs_inode_writer_write(struct sqfs_inode_writer *w, struct sqfs_sink *s,
			    const struct sqfs_file_data *fdata, const struct ff_vec *sizes,
			    struct ff_err *err)
{
	int ret;

	/* the table comes right after the data, which is all written now */
	sqfs_meta_stream(&w->meta, s);
	w->fdata = fdata;
	w->sizes = sizes;
	ret = write_subtree(w, ff_tree_root(w->tree), err);
	w->fdata = NULL;
	w->sizes = NULL;
	return ret;
}

int sqfs_inode_writer_emit(struct sqfs_inode_writer *w, struct sqfs_sink *s, uint64_t *start,
			   struct ff_err *err)
{
	return sqfs_meta_emit(s, &w->meta, start, err);
}

void sqfs_inode_writer_free(struct sqfs_inode_writer *w)
{
	sqfs_meta_free(&w->meta);
	ff_hmap_clear(&w->linked_written, NULL);
}
