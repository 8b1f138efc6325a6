/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: read and build SquashFS and YAFFS2 images.
 *
 * One header per object; this one includes them all:
 *
 *   <flashfs/error.h>     struct ff_error, how every function reports failure
 *   <flashfs/version.h>   ff_version()
 *   <flashfs/reader.h>    struct ff_reader: open any image (format detected),
 *                         walk it, stat, readlink, xattrs, read files
 *   <flashfs/extract.h>   ff_extract(): unpack any image into a directory
 *   <flashfs/fstree.h>    struct ff_fstree: the tree to build an image from,
 *                         filled entry by entry or scanned from a directory
 *                         or a tar archive
 *   <flashfs/squashfs.h>  ff_squashfs_write(): a SquashFS 4.0 image from a tree
 *   <flashfs/yaffs2.h>    ff_yaffs2_write(): a YAFFS2 image from a tree
 *   <flashfs/codec.h>     struct ff_compressor: one block, one named codec
 *
 * Build with `pkg-config --cflags --libs flashfs` (add --static to link
 * libflashfs.a).  See docs/library.md. */
#ifndef FLASHFS_FLASHFS_H
#define FLASHFS_FLASHFS_H

#include <flashfs/error.h>
#include <flashfs/version.h>
#include <flashfs/reader.h>
#include <flashfs/extract.h>
#include <flashfs/fstree.h>
#include <flashfs/squashfs.h>
#include <flashfs/yaffs2.h>
#include <flashfs/codec.h>

#endif
