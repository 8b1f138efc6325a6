/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* What appending needs to know of the old image, from the reader's side
 * (append_reader.c), for append_writer.c, which cannot see the reader's
 * internals.  fs is an image opened with ff_squashfs_open. */
#ifndef FF_SQUASHFS_APPEND_READER_H
#define FF_SQUASHFS_APPEND_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/fs.h"
#include "compress/compress.h"
#include "squashfs/format.h"

const struct sqfs_super *sqfs_old_super(const struct ff_fs *fs);
const struct ff_comp *sqfs_old_comp(const struct ff_fs *fs);
const struct sqfs_fragment_entry *sqfs_old_frags(const struct ff_fs *fs);
/* Raw bytes at image position pos. */
int sqfs_old_pread(struct ff_fs *fs, void *buf, size_t len, uint64_t pos, struct ff_err *err);
/* The inode of file `handle`, and the stored size of each of its first cap
 * data blocks in sizes (returns how many, or -1). */
ssize_t sqfs_old_file(struct ff_fs *fs, uint64_t handle, struct sqfs_inode *in,
		      uint32_t *sizes, size_t cap, struct ff_err *err);

#endif
