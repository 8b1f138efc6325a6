/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Open any image flashfs understands, with the format detected by the
 * registry's probes (registry.c), containers (UBI volumes, compressed
 * streams) unwrapped into byte sources and detected again.  With
 * opts->directories, a directory opens as a read-only view of the host
 * tree (image/dir_fs.h). */
#ifndef FF_IMAGE_IMAGE_H
#define FF_IMAGE_IMAGE_H

#include <errno.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/flashmap.h"
#include "common/fs.h"

int ff_image_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err);
/* The same for an image at byte 0 of src (opts->offset not applied). */
int ff_image_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		      struct ff_err *err);
/* The file at path as a byte source, from offset on. */
struct ff_bsrc *ff_image_source(const char *path, uint64_t offset, struct ff_err *err);

/* For a container at byte 0 of src (a UBI image): its own layer's facts,
 * as `info` gives them before the inner image's (UBI: geometry and every
 * volume), with the format found in the opened volume.  -1 with err when
 * src holds no container or it cannot be read. */
int ff_image_container_info(struct ff_bsrc *src, const struct ff_open_opts *opts, ff_info_fn fn,
			    void *ctx, struct ff_err *err);

/* ff_image_open's error code when it recognises nothing at the offset. */
#define FF_IMAGE_UNKNOWN EMEDIUMTYPE

/* Looks for an image further into the file than offset 0, after
 * ff_image_open found none there (a firmware blob with a header, a disk
 * image with a partition table): the first image the scan (scan.h) finds
 * within the first FF_IMAGE_SCAN_BYTES, at any byte offset its format's
 * magic allows.  Returns what was found ("a SquashFS image (...)") in buf
 * with its offset in *found, or NULL. */
#define FF_IMAGE_SCAN_BYTES (64ull << 20)
const char *ff_image_locate(const char *path, const struct ff_open_opts *opts, uint64_t *found,
			    char *buf, size_t cap);

/* How the image at byte 0 of src is written to NAND: 1 with *map when its
 * format's pages carry OOB bytes (the format's flash_map, common/format.h),
 * 0 when it is plain page data (a format without one), -1 with err when
 * nothing flashfs knows is there (FF_IMAGE_UNKNOWN), when flashfs only
 * names it (ENOTSUP), or when its layout does not fit dev.  With lay (the
 * user's description of the pages) the map is built from lay alone and src
 * may be NULL (a dump). */
int ff_image_flash_map(struct ff_bsrc *src, const struct ff_flash_layout *lay,
		       const struct ff_flash_dev *dev, struct ff_pagemap *map, struct ff_err *err);

#endif
