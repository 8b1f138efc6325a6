/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The options `flashfs flash` and `flashfs dump` share to describe an
 * image's pages when they carry OOB bytes (a YAFFS2 image's tags): as
 * getopt_long entries (values FF_FLASH_OPT_BASE and up), their help text,
 * and the parser that fills a struct ff_flash_layout (common/flashmap.h),
 * which the image's format turns into a page map. */
#ifndef FF_FLASHFS_FLASH_OPTS_H
#define FF_FLASHFS_FLASH_OPTS_H

#include <stdint.h>

#include "common/error.h"
#include "common/flashmap.h"

#define FF_FLASH_OPT_BASE 0x4d00
#define FF_FLASH_LAYOUT_OPTIONS                                              \
	{"chip", required_argument, NULL, FF_FLASH_OPT_BASE + 0},            \
	{"page-size", required_argument, NULL, FF_FLASH_OPT_BASE + 1},       \
	{"oob-size", required_argument, NULL, FF_FLASH_OPT_BASE + 2},        \
	{"pages-per-block", required_argument, NULL, FF_FLASH_OPT_BASE + 3}, \
	{"oob-layout", required_argument, NULL, FF_FLASH_OPT_BASE + 4},      \
	{"ecc", required_argument, NULL, FF_FLASH_OPT_BASE + 5},             \
	{"no-tags-ecc", no_argument, NULL, FF_FLASH_OPT_BASE + 6}
#define FF_FLASH_LAYOUT_USAGE                                                    \
	"  --oob-layout linux|offset0|inband   where the image holds the tags\n"   \
	"  --chip NAME           the image's chip preset (as its builder's --chip lists)\n" \
	"  --page-size N, --oob-size N, --pages-per-block N\n"                      \
	"                        the image's geometry (default: the device's)\n"    \
	"  --ecc hamming|bch4|bch8   the device's ECC, for the free OOB bytes\n"    \
	"  --no-tags-ecc         16-byte tags (without the tags ECC)\n"

/* Returns 1 when c was one of them, 0 when not, -1 (message in err) for a
 * bad value. */
int ff_flash_layout_option(struct ff_flash_layout *lay, int c, const char *arg,
			   struct ff_err *err);

/* The block counter both commands draw on stderr ("\rflashfs CMD: PHASE
 * block N/M"); line_open stays set while a line is unfinished, so that an
 * error message starts a line of its own.  ctx of ff_flash_progress. */
struct ff_flash_progress {
	const char *cmd;
	int line_open;
};
void ff_flash_progress(void *ctx, const char *phase, uint64_t done, uint64_t total);

#endif
