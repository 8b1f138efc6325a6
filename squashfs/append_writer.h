/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Appending to an existing image (append_writer.c): the old data region
 * copied to the same offsets, its fragment entries first in the table,
 * its files' block lists reused. */
#ifndef FF_SQUASHFS_APPEND_WRITER_H
#define FF_SQUASHFS_APPEND_WRITER_H

#include "common/error.h"
#include "common/fs.h"
#include "squashfs/format.h"
#include "squashfs/fragment_writer.h"
#include "squashfs/node_info.h"
#include "squashfs/sink.h"

/* The old data region, at the same offsets (s is just past the superblock). */
int sqfs_append_copy(struct sqfs_sink *s, struct ff_fs *old, struct sqfs_super *sb,
		     struct ff_err *err);
/* New fragment blocks are numbered after the old ones. */
int sqfs_append_frags(struct sqfs_frag_writer *f, struct ff_fs *old, struct ff_err *err);
/* An old file: its blocks are where the copy put them. */
int sqfs_append_file(struct ff_fs *old, const struct ff_node *n, struct sqfs_file_data *fd,
		     struct ff_vec *sizes, struct ff_err *err);

#endif
