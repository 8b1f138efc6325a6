/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* What the flashfs subcommands share: the image options every one of them
 * accepts (--offset, --cache-size), opening with diagnostics on stderr, and
 * small formatting helpers. */
#ifndef FF_FLASHFS_CLI_H
#define FF_FLASHFS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/fs.h"

/* getopt_long ids for the shared options; add FF_CLI_LONGOPTS to a table. */
enum { FF_OPT_OFFSET = 0x1000, FF_OPT_CACHE, FF_OPT_VOLUME, FF_OPT_PEB_SIZE,
       FF_OPT_PAGE_SIZE, FF_OPT_OOB_SIZE, FF_OPT_PPB, FF_OPT_ENDIAN, FF_OPT_OOB_LAYOUT,
       FF_OPT_TAGS };
#define FF_CLI_LONGOPTS \
	{"offset", required_argument, NULL, FF_OPT_OFFSET}, \
	{"cache-size", required_argument, NULL, FF_OPT_CACHE}, \
	{"volume", required_argument, NULL, FF_OPT_VOLUME}, \
	{"peb-size", required_argument, NULL, FF_OPT_PEB_SIZE}, \
	{"page-size", required_argument, NULL, FF_OPT_PAGE_SIZE}, \
	{"oob-size", required_argument, NULL, FF_OPT_OOB_SIZE}, \
	{"erase-size", required_argument, NULL, FF_OPT_PEB_SIZE}, \
	{"pages-per-block", required_argument, NULL, FF_OPT_PPB}, \
	{"endian", required_argument, NULL, FF_OPT_ENDIAN}, \
	{"oob-layout", required_argument, NULL, FF_OPT_OOB_LAYOUT}, \
	{"tags", required_argument, NULL, FF_OPT_TAGS}
#define FF_CLI_HELP \
	"  --offset N       the image starts N bytes into the file\n" \
	"  --cache-size N   cache budget in bytes (K/M/G suffixes)\n" \
	"  --volume V       UBI image: open volume V (name or ID; default: the\n" \
	"                   only volume, or the one named rootfs)\n" \
	"  --peb-size N, --erase-size N\n" \
	"                   the erase-block (UBI: PEB) size, if not detected\n" \
	"  --page-size N, --oob-size N, --pages-per-block N\n" \
	"                   NAND geometry of an image or dump (pages with their\n" \
	"                   OOB), if it cannot be detected\n" \
	"  --endian little|big|auto   the image's byte order\n" \
	"  --oob-layout linux|offset0|inband, --tags kernel|classic\n" \
	"                   where the tags sit in the OOB (YAFFS2)\n"

/* Handles a shared option; returns 1 when it was one, 0 if not, -1 (after
 * printing) for a bad value. */
int ff_cli_option(const char *cmd, int c, const char *arg, struct ff_open_opts *o);
/* Damage a reader finds while reading is printed as
 * "flashfs: IMAGE: message" (image must outlive the open image). */
void ff_cli_log(struct ff_open_opts *o, const char *image);
/* Opens image, printing "flashfs CMD: IMAGE: message" on failure.  Damage
 * found later is logged the same way. */
int ff_cli_open(const char *cmd, const char *image, struct ff_open_opts *o, struct ff_fs **fs);
/* Prints why image did not open.  When nothing was recognised at offset 0,
 * says where in the file an image was found, with the option to give
 * (offset_option, e.g. "--offset ", followed by the number). */
void ff_cli_open_error(const char *cmd, const char *image, const struct ff_open_opts *o,
		       const struct ff_err *err, const char *offset_option);
/* "-rwxr-xr-x" (10 characters + NUL). */
void ff_mode_string(uint32_t mode, char out[11]);

#endif
