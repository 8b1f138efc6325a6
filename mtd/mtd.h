/* Writing images to an MTD device and reading them back, through libmtd.
 *
 * The MTD layer knows pages, OOB and erase blocks, not file systems: how an
 * image page splits into page data and the bytes written with
 * MTD_OPS_AUTO_OOB is a page map (for YAFFS2 built from the layout of
 * yaffs2/oob_layout.h by ff_mtd_yaffs2_map).  Without a map an image is
 * plain data (SquashFS, raw images) and no OOB is written.
 *
 * Bad blocks are skipped the way nandwrite and nanddump skip them: image
 * block i lands on the i-th good erase block. */
#ifndef FF_MTD_MTD_H
#define FF_MTD_MTD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/outfile.h"
#include "yaffs2/oob_layout.h"

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

/* How one image page becomes page data + AUTO_OOB bytes and back. */
struct ff_mtd_pagemap {
	uint32_t raw_page; /* image bytes per page (page + OOB, or page only) */
	uint32_t oob_len;  /* AUTO_OOB bytes per page, <= oob_avail; 0 = none */
	void (*split)(const void *ctx, const uint8_t *raw, uint8_t *data, uint8_t *oob);
	void (*join)(const void *ctx, const uint8_t *data, const uint8_t *oob, uint8_t *raw);
	const void *ctx;
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
	const struct ff_mtd_pagemap *map; /* NULL: data only */
	int verify;                       /* read every page back and compare */
	ff_mtd_progress_fn progress;
	void *progress_ctx;
};

struct ff_mtd_dump_opts {
	enum ff_mtd_oob_mode oob;
	const struct ff_mtd_pagemap *map; /* for FF_MTD_OOB_MAP */
	uint64_t length;                  /* image bytes to dump; 0 = whole device */
	ff_mtd_progress_fn progress;
	void *progress_ctx;
};

/* Open an MTD character device (/dev/mtdN); writable for flashing. */
int ff_mtd_open(const char *node, int writable, struct ff_mtd **out, struct ff_err *err);
void ff_mtd_close(struct ff_mtd *m);
void ff_mtd_geometry(const struct ff_mtd *m, struct ff_mtd_geom *g);

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

/* A YAFFS2 image's geometry and layout as the user gave it; fields left
 * 0 / NULL come from the chip preset, else from the device. */
struct ff_mtd_y2_spec {
	const char *chip;          /* a yaffs2/geometry.h preset name */
	uint32_t page_size, oob_size, pages_per_block;
	const char *layout;        /* "linux", "offset0", "inband" */
	const char *ecc;           /* "hamming", "bch4", "bch8" */
	int no_tags_ecc;           /* 16-byte tags instead of 28 */
};

/* Build the layout for `spec`, then ff_mtd_y2_check it. */
int ff_mtd_y2_layout(const struct ff_mtd *m, const struct ff_mtd_y2_spec *spec,
		     struct ff_y2_layout *lay, struct ff_err *err);

/* The options flashfs flash and dump share for YAFFS2 geometry, as
 * getopt_long entries (values FF_MTD_OPT_BASE and up), their help text, and
 * the parser: returns 1 when `c` was one of them, 0 when not, -1 (message
 * in err) for a bad value. */
#define FF_MTD_OPT_BASE 0x4d00
#define FF_MTD_Y2_OPTIONS                                                    \
	{"chip", required_argument, NULL, FF_MTD_OPT_BASE + 0},              \
	{"page-size", required_argument, NULL, FF_MTD_OPT_BASE + 1},     \
	{"oob-size", required_argument, NULL, FF_MTD_OPT_BASE + 2},      \
	{"pages-per-block", required_argument, NULL, FF_MTD_OPT_BASE + 3}, \
	{"oob-layout", required_argument, NULL, FF_MTD_OPT_BASE + 4},    \
	{"ecc", required_argument, NULL, FF_MTD_OPT_BASE + 5},           \
	{"no-tags-ecc", no_argument, NULL, FF_MTD_OPT_BASE + 6}
#define FF_MTD_Y2_USAGE                                                          \
	"  --oob-layout linux|offset0|inband   where the image holds the tags\n"   \
	"  --chip NAME           the image's chip preset (mkfs.yaffs2 --chip list)\n" \
	"  --page-size N, --oob-size N, --pages-per-block N\n"                      \
	"                        the image's geometry (default: the device's)\n"    \
	"  --ecc hamming|bch4|bch8   the device's ECC, for the free OOB bytes\n"    \
	"  --no-tags-ecc         16-byte tags (without the tags ECC)\n"
int ff_mtd_y2_option(struct ff_mtd_y2_spec *spec, int c, const char *arg, struct ff_err *err);

/* Refuse, naming both geometries, a layout that does not match the device
 * (page, OOB, pages per block, and the free OOB bytes of AUTO placement). */
int ff_mtd_y2_check(const struct ff_mtd *m, const struct ff_y2_layout *lay, struct ff_err *err);

/* The page map that writes and reads a YAFFS2 layout's tags through
 * MTD_OPS_AUTO_OOB; `lay` must outlive `map`. */
void ff_mtd_y2_map(const struct ff_y2_layout *lay, struct ff_mtd_pagemap *map);

#endif
