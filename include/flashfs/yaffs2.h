/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: writing a YAFFS2 image.
 *
 * The image is a sequence of raw NAND pages, page data then OOB, as
 * `nandwrite -o` (or `flashfs flash`) writes it, for a chip of the given
 * geometry; the kernel's yaffs2 driver reads the tags from the OOB bytes
 * its MTD layout leaves free.  Objects are numbered in tree order, and
 * all-zero chunks are left unwritten (they read back as zeros). */
#ifndef FLASHFS_YAFFS2_H
#define FLASHFS_YAFFS2_H

#include <stdint.h>

#include <flashfs/error.h>
#include <flashfs/fstree.h>

struct ff_yaffs2_options {
	uint32_t page_size;       /* data bytes per page; default 2048 */
	uint32_t oob_size;        /* OOB bytes per page; 0 = the usual for page_size */
	uint32_t pages_per_block; /* default 64 */
	const char *oob_layout;   /* "linux" (default: the kernel's free OOB bytes),
				     "offset0" (tags at OOB byte 0, mkyaffs2image),
				     "inband" (tags in the page, no OOB) */
	const char *ecc;          /* the chip's ECC, which decides the linux
				     layout's free bytes: "hamming" (default),
				     "bch4", "bch8" */
	int big_endian;           /* -1 = this machine's order (default), 0, 1 */
	int classic_tags;         /* mkyaffs2image-style headers, for unyaffs */
	int no_tags_ecc;          /* 16-byte tags without their 12-byte ECC */
	const char *container;    /* NULL, or "gzip", "lzo", "xz", "zstd": the
				     whole image in that container */
};

/* Fills *opts with the defaults above. */
FF_API void ff_yaffs2_options_init(struct ff_yaffs2_options *opts);

/* Writes the image to image_path atomically (see ff_squashfs_write).
 * opts may be NULL (the defaults).  Finishes the tree. */
FF_API int ff_yaffs2_write(struct ff_fstree *tree, const char *image_path,
			   const struct ff_yaffs2_options *opts, struct ff_error *err);

#endif
