/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* How an image's pages go onto NAND flash, in terms no format owns: a page
 * map says how one image page splits into the page data and the bytes
 * written to the OOB with MTD_OPS_AUTO_OOB (and joins them back for a
 * dump).  A format whose images carry OOB bytes builds one (the
 * flash_map hook of common/format.h); mtd/ only consumes it, so the flash
 * layer and image/ name no format.  Without a map an image is plain page
 * data, as nandwrite -p writes it. */
#ifndef FF_COMMON_FLASHMAP_H
#define FF_COMMON_FLASHMAP_H

#include <stdint.h>

/* The device a map must fit, as the flash layer reports it. */
struct ff_flash_dev {
	const char *name;          /* "/dev/mtd0", for messages */
	uint32_t page_size;        /* minimum I/O unit */
	uint32_t oob_size;         /* raw spare bytes per page */
	uint32_t oob_avail;        /* free bytes MTD_OPS_AUTO_OOB offers */
	uint32_t pages_per_block;
};

/* What the user said about the image's pages; 0 / NULL: detected from the
 * image, else the device's.  Each format reads what applies to it. */
struct ff_flash_layout {
	const char *chip;          /* a NAND chip preset (mkfs.yaffs2 --chip list) */
	uint32_t page_size, oob_size, pages_per_block;
	const char *oob_layout;    /* where the image keeps its OOB bytes:
				    * "linux", "offset0", "inband" */
	const char *ecc;           /* the device's ECC: "hamming", "bch4", "bch8" */
	int no_tags_ecc;           /* tags without their own ECC (16 bytes) */
};

/* How one image page becomes page data + AUTO_OOB bytes and back. */
struct ff_pagemap {
	uint32_t raw_page; /* image bytes per page (page + OOB, or page only) */
	uint32_t oob_len;  /* AUTO_OOB bytes per page, <= oob_avail; 0 = none */
	void (*split)(const void *ctx, const uint8_t *raw, uint8_t *data, uint8_t *oob);
	void (*join)(const void *ctx, const uint8_t *data, const uint8_t *oob, uint8_t *raw);
	const void *ctx;
	/* Frees what the map owns (ctx), or NULL when it owns nothing. */
	void (*release)(struct ff_pagemap *map);
	char what[64];     /* what is written: "YAFFS2 data + tags" */
};

static inline void ff_pagemap_release(struct ff_pagemap *map)
{
	if (map && map->release)
		map->release(map);
}

#endif
