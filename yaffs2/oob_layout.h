/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Where YAFFS2 tags sit in a raw NAND page, and how an image page maps to
 * what MTD_OPS_AUTO_OOB hands a file system.
 *
 * An image is a sequence of raw pages: page_size data bytes followed by
 * oob_size OOB bytes (layouts `linux` and `offset0`), or page_size data
 * bytes only (`inband`, where the 16-byte tags end each page).
 *
 *   linux    tags in the OOB free bytes of the kernel's default layout for
 *            the chip's ECC (software Hamming by default; BCH4/BCH8 on
 *            request), so `nandwrite -o` writes the image unchanged and the
 *            kernel reads the tags back through MTD_OPS_AUTO_OOB.
 *   offset0  tags at raw OOB byte 0 (Aleph One mkyaffs2image, unyaffs).
 *   inband   no OOB; tags in the last 16 bytes of each page.
 *
 * When a `linux` layout leaves too few free bytes for the tags, the layout
 * falls back to inband as the kernel does; `fallback` says so. */
#ifndef FF_YAFFS2_OOB_LAYOUT_H
#define FF_YAFFS2_OOB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "yaffs2/geometry.h"

enum ff_y2_layout_kind {
	FF_Y2_LAYOUT_LINUX,
	FF_Y2_LAYOUT_OFFSET0,
	FF_Y2_LAYOUT_INBAND,
};

enum ff_y2_ecc_kind {
	FF_Y2_ECC_HAMMING, /* software Hamming, 3 bytes per 256 */
	FF_Y2_ECC_BCH4,    /* software BCH, 7 bytes per 512 */
	FF_Y2_ECC_BCH8,    /* software BCH, 13 bytes per 512 */
};

#define FF_Y2_TAGS_SIZE_ECC   28 /* packed tags2 with the 12-byte tags ECC */
#define FF_Y2_TAGS_SIZE_PLAIN 16 /* packed tags2 without it (and inband) */
#define FF_Y2_MAX_REGIONS 8

struct ff_y2_region {
	uint32_t offset, len;
};

struct ff_y2_layout {
	struct ff_y2_geom geom;
	enum ff_y2_layout_kind kind;
	enum ff_y2_ecc_kind ecc;
	int fallback;          /* asked for linux, got inband (too few free bytes) */
	uint32_t tags_size;    /* 28 or 16 bytes */
	uint32_t chunk_bytes;  /* data bytes per chunk (page, minus 16 inband) */
	uint32_t raw_page;     /* bytes per page in the image */
	/* The kernel's MTD_OPS_AUTO_OOB free regions of the raw OOB for this
	 * geometry and ECC (independent of `kind`): the MTD writer's view. */
	struct ff_y2_region mtd_free[FF_Y2_MAX_REGIONS];
	uint32_t n_mtd_free;
	uint32_t mtd_free_bytes;
	/* The raw ECC byte positions, in ECC step order. */
	struct ff_y2_region ecc_regions[FF_Y2_MAX_REGIONS];
	uint32_t n_ecc_regions;
	uint32_t ecc_step;      /* data bytes per ECC step */
	uint32_t ecc_bytes;     /* ECC bytes per step */
};

/* kind: "linux", "offset0", "inband" (NULL = linux); ecc: "hamming",
 * "bch4", "bch8" (NULL = hamming); tags_ecc: 1 for 28-byte tags.
 * Errors name the option and the numbers. */
int ff_y2_layout_init(struct ff_y2_layout *lay, const struct ff_y2_geom *geom,
		      const char *kind, const char *ecc, int tags_ecc, struct ff_err *err);

const char *ff_y2_layout_name(enum ff_y2_layout_kind kind);
const char *ff_y2_ecc_name(enum ff_y2_ecc_kind ecc);

/* Gather the tag bytes of one raw image page into tags[tags_size]. */
void ff_y2_page_get_tags(const struct ff_y2_layout *lay, const uint8_t *raw_page,
			 uint8_t *tags);
/* Scatter tags[tags_size] into a raw image page (other OOB bytes untouched). */
void ff_y2_page_put_tags(const struct ff_y2_layout *lay, uint8_t *raw_page,
			 const uint8_t *tags);

/* For the MTD writer: split a raw image page into its data (page_size bytes)
 * and the bytes to write with MTD_OPS_AUTO_OOB (auto_oob[mtd_free_bytes]):
 * the tags first, 0xff after.  Returns the number of meaningful AUTO_OOB
 * bytes (tags_size; 0 for inband, where the tags are in the data). */
uint32_t ff_y2_page_split(const struct ff_y2_layout *lay, const uint8_t *raw_page,
			  uint8_t *data, uint8_t *auto_oob);
/* The reverse, for dumps read with MTD_OPS_AUTO_OOB: build the raw image
 * page from data[page_size] and auto_oob[mtd_free_bytes] (ECC bytes and
 * other OOB bytes 0xff). */
void ff_y2_page_join(const struct ff_y2_layout *lay, const uint8_t *data,
		     const uint8_t *auto_oob, uint8_t *raw_page);

#endif
