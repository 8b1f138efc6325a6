/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Appending to an existing image, as mksquashfs does without -noappend.
 * The old image's data region (compressor options, data and fragment
 * blocks: everything between the superblock and its inode table) is copied
 * byte for byte to the same offsets of the new image, so the old files'
 * block lists and fragment entries stay valid as they are: nothing is
 * decompressed or compressed again.  New data follows; the fragment table
 * starts with the old entries; every metadata table is written anew from
 * the merged tree (tree/image_source.c put the old objects in it). */
#include "squashfs/append_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/endian.h"
#include "squashfs/append_reader.h"
#include "squashfs/reader.h"
#include "squashfs/writer.h"

int ff_sqfs_append_open(const char *path, struct ff_fs **fs, struct ff_err *err)
{
	struct ff_open_opts o = {0};
	uint8_t magic[4];
	struct stat st;
	ssize_t n;
	int fd;

	*fs = NULL;
	/* Only a regular file is appended to; anything else (a fifo, which
	 * open would wait on) is left to the output file's own checks. */
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ff_err_sys(err, errno, "%s", path);
	n = pread(fd, magic, sizeof(magic), 0);
	close(fd);
	if (n != (ssize_t)sizeof(magic) || !ff_squashfs_probe(magic, sizeof(magic)))
		return 0;
	if (ff_squashfs_open(path, &o, fs, err) < 0)
		return ff_err_prefix(err, "%s: cannot append to this image (-noappend replaces it)",
				     path);
	/* The copied data region holds the options block in the old order,
	 * and the writer makes little-endian images only. */
	if (sqfs_old_super(*fs)->order != SQFS_LE) {
		ff_fs_close(*fs);
		*fs = NULL;
		return ff_err_set(err, EINVAL, "%s: cannot append to a big-endian image (the writer makes little-endian ones; -noappend replaces it)",
				  path);
	}
	return 1;
}

const struct ff_comp *ff_sqfs_append_comp(const struct ff_fs *fs)
{
	return sqfs_old_comp(fs);
}

uint32_t ff_sqfs_append_block_size(const struct ff_fs *fs)
{
	return sqfs_old_super(fs)->block_size;
}

int ff_sqfs_append_check(const struct ff_fs *fs, const struct ff_comp *comp,
			 uint32_t block_size, struct ff_err *err)
{
	const struct ff_comp *old = sqfs_old_comp(fs);
	uint32_t old_bs = sqfs_old_super(fs)->block_size;

	if (ff_comp_options_unread(old))
		return ff_err_set(err, EINVAL, "appending: the image's %s options block was not "
				  "understood (%s), so new blocks could not match it (give -noappend)",
				  ff_comp_name(old), ff_comp_options_unread(old));
	if (comp && ff_comp_id(comp) != ff_comp_id(old))
		return ff_err_set(err, EINVAL, "appending: the image is compressed with %s; "
				  "-comp %s conflicts (or give -noappend)", ff_comp_name(old),
				  ff_comp_name(comp));
	if (block_size && block_size != old_bs)
		return ff_err_set(err, EINVAL, "appending: the image has %u-byte blocks; -b %u "
				  "conflicts (or give -noappend)", old_bs, block_size);
	return 0;
}

/* The old data region, at the same offsets (the sink is just past the
 * superblock). */
int sqfs_append_copy(struct sqfs_sink *s, struct ff_fs *fs, struct sqfs_super *sb,
		     struct ff_err *err)
{
	const struct sqfs_super *old = sqfs_old_super(fs);
	static const size_t chunk = 1u << 20;
	uint64_t end = old->inode_table;
	uint8_t *buf = malloc(chunk);

	if (!buf)
		return ff_err_set(err, ENOMEM, "append: out of memory");
	sb->flags |= old->flags & SQFS_FLAG_COMPRESSOR_OPTIONS;
	while (s->pos < end) {
		size_t len = end - s->pos < chunk ? (size_t)(end - s->pos) : chunk;

		if (sqfs_old_pread(fs, buf, len, s->pos, err) < 0 ||
		    sqfs_sink_write(s, buf, len, err) < 0) {
			free(buf);
			return ff_err_prefix(err, "append: copying the old data");
		}
	}
	free(buf);
	return 0;
}

/* New fragment blocks are numbered after the old ones. */
int sqfs_append_frags(struct sqfs_frag_writer *f, struct ff_fs *fs, struct ff_err *err)
{
	uint32_t n = sqfs_old_super(fs)->fragment_count;

	if (!n)
		return 0;
	return sqfs_frag_preload(f, sqfs_old_frags(fs), n, err);
}

/* An old file: its blocks are where the copy put them. */
int sqfs_append_file(struct ff_fs *fs, const struct ff_node *n, struct sqfs_file_data *fd,
		     struct ff_vec *sizes, struct ff_err *err)
{
	uint32_t bs = sqfs_old_super(fs)->block_size;
	struct sqfs_inode in;
	uint32_t tail = (uint32_t)(n->size % bs);
	/* at most this many blocks; the inode says how many there are */
	uint32_t n_blocks = (uint32_t)(n->size / bs) + (tail != 0);
	ssize_t got;

	if (sqfs_fd_sizes_new(sizes, fd, (size_t)n_blocks + 1, n_blocks, err) < 0)
		return -1;
	got = sqfs_old_file(fs, n->img_handle, &in, sqfs_fd_sizes(sizes, fd), n_blocks, err);
	if (got < 0)
		return -1;
	n_blocks = (uint32_t)(in.file_size / bs) + (tail && in.frag_index == SQFS_INVALID_FRAG);
	if (in.file_size != n->size || (size_t)got < n_blocks)
		return ff_err_set(err, EIO, "old image: %llu bytes in %zd blocks, expected %llu "
				  "bytes in %u", (unsigned long long)in.file_size, got,
				  (unsigned long long)n->size, n_blocks);
	if (in.frag_index == SQFS_FD_DUP) /* the record's mark (node_info.h) */
		return ff_err_set(err, EFBIG, "old image: fragment index %u: this writer takes "
				  "at most %u fragment blocks", in.frag_index, SQFS_FD_DUP);
	sqfs_fd_set_n_blocks(sizes, fd, n_blocks);
	sqfs_fd_set_blocks_start(sizes, fd, in.blocks_start);
	fd->frag_index = in.frag_index;
	*sqfs_fd_frag_offset_at(sizes, fd) = in.frag_offset;
	return 0;
}
