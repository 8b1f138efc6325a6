/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Writing images to an MTD device and reading them back, through libmtd.
 *
 * The MTD layer knows pages, OOB and erase blocks, not file systems: how an
 * image page splits into page data and the bytes written with
 * MTD_OPS_AUTO_OOB is a page map (common/flashmap.h), built by the image's
 * format (image/image.h's ff_image_flash_map).  Without a map an image is
 * plain data and no OOB is written.
 *
 * Bad blocks are skipped the way nandwrite and nanddump skip them: image
 * block i lands on the i-th good erase block. */
#ifndef FF_MTD_MTD_H
#define FF_MTD_MTD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/flashmap.h"
#include "common/outfile.h"

struct ff_mtd;

struct ff_mtd_geom {
	uint64_t size;             /* bytes, without OOB */
	uint32_t page_size;        /* minimum I/O unit */
	uint32_t oob_size;         /* raw spare bytes per page */
	uint32_t oob_avail;        /* free bytes MTD_OPS_AUTO_OOB offers */
	uint32_t block_size;       /* erase block */
	uint32_t pages_per_block;
	uint32_t blocks;
	int is_nand;
	int bad_allowed;
};

/* What a dump writes per page. */
enum ff_mtd_oob_mode {
	FF_MTD_OOB_NONE, /* page data only */
	FF_MTD_OOB_RAW,  /* page data + all raw OOB bytes as the chip holds them */
	FF_MTD_OOB_MAP,  /* the image page the map's join builds */
};

/* phase is "erase+write", "verify" or "read"; done/total count blocks. */
typedef void (*ff_mtd_progress_fn)(void *ctx, const char *phase, uint64_t done,
				   uint64_t total);

struct ff_mtd_stats {
	uint64_t bytes;          /* image bytes flashed or dumped */
	uint64_t pages;          /* pages programmed or read */
	uint32_t blocks;         /* good erase blocks used */
	uint32_t bad_skipped;    /* bad erase blocks stepped over */
	uint64_t corrected;      /* bit flips the ECC corrected */
	uint64_t failed;         /* pages with uncorrectable ECC errors */
	uint64_t first_failed;   /* device address of the first of them */
	int have_ecc_stats;      /* ECCGETSTATS totals below are valid */
	uint64_t dev_corrected;  /* ECCGETSTATS differences over the run */
	uint64_t dev_failed;
};

struct ff_mtd_flash_opts {
	const struct ff_pagemap *map; /* NULL: data only */
	int verify;                       /* read every page back and compare */
	ff_mtd_progress_fn progress;
	void *progress_ctx;
};

struct ff_mtd_dump_opts {
	enum ff_mtd_oob_mode oob;
	const struct ff_pagemap *map; /* for FF_MTD_OOB_MAP */
	uint64_t length;                  /* image bytes to dump; 0 = whole device */
	ff_mtd_progress_fn progress;
	void *progress_ctx;
};

/* Open an MTD character device (/dev/mtdN); writable for flashing. */
int ff_mtd_open(const char *node, int writable, struct ff_mtd **out, struct ff_err *err);
void ff_mtd_close(struct ff_mtd *m);
void ff_mtd_geometry(const struct ff_mtd *m, struct ff_mtd_geom *g);
/* The device as a page map must fit it (common/flashmap.h); d->name is the
 * node's, valid while m is open. */
void ff_mtd_flash_dev(const struct ff_mtd *m, struct ff_flash_dev *d);

/* Which image block goes to which erase block: map[i] is the i-th good
 * block.  Fails, naming the numbers, when fewer than `need` blocks are good.
 * Pure, so it can be tested without a device. */
int ff_mtd_plan(const uint8_t *bad, uint32_t blocks, uint32_t need, uint32_t *map,
		struct ff_err *err);

/* Erase and write image_size bytes read from image_fd.  Refuses before
 * erasing anything when the device is too small for the image and its bad
 * blocks, or when the image is not a whole number of map pages. */
int ff_mtd_flash(struct ff_mtd *m, int image_fd, uint64_t image_size,
		 const struct ff_mtd_flash_opts *o, struct ff_mtd_stats *st, struct ff_err *err);

/* Read good blocks into `of` (not committed here).  Uncorrectable pages are
 * counted in st->failed, not an error: the caller decides. */
int ff_mtd_dump(struct ff_mtd *m, struct ff_outfile *of, const struct ff_mtd_dump_opts *o,
		struct ff_mtd_stats *st, struct ff_err *err);

#endif
