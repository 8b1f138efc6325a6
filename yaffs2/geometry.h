/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* NAND geometry for YAFFS2 images: page (chunk) size, OOB (spare) size and
 * pages per erase block, either given explicitly or from a chip preset. */
#ifndef FF_YAFFS2_GEOMETRY_H
#define FF_YAFFS2_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct ff_y2_geom {
	uint32_t page_size;       /* 512 .. 16384, a power of two */
	uint32_t oob_size;        /* spare bytes per page */
	uint32_t pages_per_block;
};

struct ff_y2_chip {
	const char *name;         /* "nandsim-2k-256m" */
	struct ff_y2_geom geom;
	uint64_t size_bytes;      /* whole chip, without OOB */
	uint8_t ids[4];           /* nandsim first..fourth id bytes (0 = unused) */
	const char *desc;
};

/* Defaults: the common 2K SLC NAND (2048 + 64, 64 pages per block). */
void ff_y2_geom_default(struct ff_y2_geom *g);

/* Checks ranges and powers of two; errors name the field and value. */
int ff_y2_geom_check(const struct ff_y2_geom *g, struct ff_err *err);

/* Preset table, terminated by an entry with name == NULL. */
const struct ff_y2_chip *ff_y2_chips(void);
const struct ff_y2_chip *ff_y2_chip_find(const char *name);

/* The usual OOB size for a page size (page / 32), used by detection. */
uint32_t ff_y2_default_oob(uint32_t page_size);

#endif
