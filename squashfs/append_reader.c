/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "squashfs/append_reader.h"

#include <errno.h>
#include <stdlib.h>

#include "squashfs/fs_reader.h"

static struct sqfs_rd *rd_of(const struct ff_fs *fs)
{
	return (struct sqfs_rd *)fs;
}

const struct sqfs_super *sqfs_old_super(const struct ff_fs *fs)
{
	return &rd_of(fs)->sb;
}

const struct ff_comp *sqfs_old_comp(const struct ff_fs *fs)
{
	return rd_of(fs)->comp;
}

const struct sqfs_fragment_entry *sqfs_old_frags(const struct ff_fs *fs)
{
	return rd_of(fs)->frags;
}

int sqfs_old_pread(struct ff_fs *fs, void *buf, size_t len, uint64_t pos, struct ff_err *err)
{
	return sqfs_pread(rd_of(fs), buf, len, pos, err);
}

ssize_t sqfs_old_file(struct ff_fs *fs, uint64_t handle, struct sqfs_inode *in,
		      uint32_t *sizes, size_t cap, struct ff_err *err)
{
	struct sqfs_rd *rd = rd_of(fs);
	struct sqfs_blkref *refs = calloc(cap + 1, sizeof(*refs));
	struct sqfs_node n;
	ssize_t got;

	if (!refs)
		return ff_err_set(err, ENOMEM, "out of memory");
	got = sqfs_node_load(rd, handle, &n, err);
	if (got == 0)
		got = sqfs_file_blocks(rd, handle, 0, refs, cap, err);
	for (ssize_t i = 0; i < got; i++)
		sizes[i] = refs[i].idx < cap ? refs[i].size : 0;
	*in = n.in;
	free(refs);
	return got;
}
