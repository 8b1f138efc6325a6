/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Opening a SquashFS 4.0 image for reading.  The result implements the one
 * read interface of common/fs.h. */
#ifndef FF_SQUASHFS_READER_H
#define FF_SQUASHFS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"

/* Non-zero when buf (the first bytes of an image) starts with a SquashFS
 * superblock magic of either byte order. */
int ff_squashfs_probe(const uint8_t *buf, size_t len);

/* Non-zero when buf holds a plausible SquashFS superblock for an image of
 * at most avail bytes: it decodes, and its tables lie in order inside
 * bytes_used, which fits in avail.  For finding an image inside a blob. */
int ff_squashfs_probe_super(const uint8_t *buf, size_t len, uint64_t avail);

/* The image at opts->offset of the file at path. */
int ff_squashfs_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		     struct ff_err *err);
/* The image starting at byte 0 of src (opts->offset is not applied). */
int ff_squashfs_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
			 struct ff_err *err);

#endif
