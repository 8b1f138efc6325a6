/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs flash IMAGE /dev/mtdN: erase and write an image through libmtd
 * (mtd/mtd.h does the work).  An image is written as page data only, or,
 * when its format gives a page map (image/image.h's ff_image_flash_map:
 * YAFFS2's tags), as page data + OOB bytes with MTD_OPS_AUTO_OOB. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bsrc.h"
#include "common/fd_size.h"
#include "flashfs/commands.h"
#include "flashfs/flash_opts.h"
#include "image/image.h"
#include "mtd/mtd.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: flashfs flash [OPTIONS] IMAGE /dev/mtdN\n"
		"Erase the device and write IMAGE, skipping bad blocks (image blocks move to\n"
		"the next good block, as nandwrite does), then read every page back.\n\n"
		"  --raw                 data only, no OOB, whatever the image is (the\n"
		"                        default for an image whose pages carry none)\n"
		"  --no-verify           do not read back and compare\n"
		"  -q, --quiet           no progress or summary\n"
		"Images with tags beside each page (YAFFS2), detected or described by these\n"
		"options; the tags are written with MTD_OPS_AUTO_OOB:\n"
		FF_FLASH_LAYOUT_USAGE
		"\nExit status: 0 ok, 1 write or verify failed, 2 usage or refused\n"
		"(geometry mismatch, device too small for the image and its bad blocks).\n");
}

struct flash_args {
	const char *image, *dev;
	int raw, verify, quiet;
	struct ff_flash_layout lay;
	int have_layout;
};

static int parse(int argc, char **argv, struct flash_args *a)
{
	static const struct option opts[] = {
		{"raw", no_argument, NULL, 'r'}, {"no-verify", no_argument, NULL, 'V'},
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},
		FF_FLASH_LAYOUT_OPTIONS, {NULL, 0, NULL, 0}};
	int c;

	memset(a, 0, sizeof(*a));
	a->verify = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		struct ff_err err = {0};
		int r = ff_flash_layout_option(&a->lay, c, optarg, &err);

		if (r > 0) {
			a->have_layout = 1;
			continue;
		}
		if (r < 0) {
			fprintf(stderr, "flashfs flash: %s\n", err.msg);
			return 2;
		}
		switch (c) {
		case 'r': a->raw = 1; break;
		case 'V': a->verify = 0; break;
		case 'q': a->quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (a->raw && a->have_layout) {
		fprintf(stderr, "flashfs flash: --raw does not go with the page layout options\n");
		return 2;
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	a->image = argv[optind];
	a->dev = argv[optind + 1];
	return -1;
}

/* The page map to write with: from the options, else from the image's
 * format, checked against the device.  Returns 1 with *map, 0 for data
 * only, -1 after printing why the image is refused. */
static int pick_map(const struct flash_args *a, int fd, struct ff_mtd *m,
		    struct ff_pagemap *map)
{
	struct ff_err err = {0};
	struct ff_flash_dev dev;
	struct ff_bsrc *src = NULL;
	int rc = -1;

	if (a->raw)
		return 0;
	ff_mtd_flash_dev(m, &dev);
	if (a->have_layout || (src = ff_bsrc_from_fd(fd, 0, a->image, &err)))
		rc = ff_image_flash_map(src, a->have_layout ? &a->lay : NULL, &dev, map, &err);
	ff_bsrc_unref(src);
	if (rc >= 0)
		return rc;
	if (err.code == FF_IMAGE_UNKNOWN || err.code == ENOTSUP)
		fprintf(stderr, "flashfs flash: %s: %s; give --raw for a raw image, or the page "
				"layout options\n", a->image, err.msg);
	else
		fprintf(stderr, "flashfs flash: %s: %s\n", a->image, err.msg);
	return -1;
}

static int run(const struct flash_args *a, int fd, uint64_t size, struct ff_mtd *m)
{
	struct ff_err err = {0};
	struct ff_pagemap map;
	struct ff_flash_progress bar = {"flash", 0};
	struct ff_mtd_flash_opts o = {NULL, a->verify, a->quiet ? NULL : ff_flash_progress, &bar};
	struct ff_mtd_stats st;
	char how[96] = "data only";
	int rc, kind = pick_map(a, fd, m, &map);

	if (kind < 0)
		return 2;
	if (kind == 1) {
		o.map = &map;
		snprintf(how, sizeof(how), "%s (AUTO OOB)", map.what);
	}
	rc = ff_mtd_flash(m, fd, size, &o, &st, &err);
	if (o.map)
		ff_pagemap_release(&map);
	if (rc) {
		fprintf(stderr, "%sflashfs flash: %s: %s\n", bar.line_open ? "\n" : "", a->image, err.msg);
		return err.code == ENOSPC || err.code == EINVAL ? 2 : 1;
	}
	if (!a->quiet)
		printf("flashfs flash: %s -> %s: %llu bytes, %llu pages in %u erase blocks, "
		       "%u bad blocks skipped, %s%s\n",
		       a->image, a->dev, (unsigned long long)st.bytes, (unsigned long long)st.pages,
		       st.blocks, st.bad_skipped, how, a->verify ? ", verified" : "");
	return 0;
}

static int cmd_flash(int argc, char **argv)
{
	struct flash_args a;
	struct ff_err err = {0};
	struct ff_mtd *m;
	uint64_t size;
	int fd, rc = parse(argc, argv, &a);

	if (rc >= 0)
		return rc;
	fd = open(a.image, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "flashfs flash: %s: %s\n", a.image, strerror(errno));
		return 2;
	}
	rc = ff_fd_size(fd, &size);
	if (rc < 0) {
		fprintf(stderr, "flashfs flash: %s: %s\n", a.image, strerror(-rc));
		close(fd);
		return 2;
	}
	if (ff_mtd_open(a.dev, 1, &m, &err)) {
		fprintf(stderr, "flashfs flash: %s\n", err.msg);
		close(fd);
		return 2;
	}
	rc = run(&a, fd, size, m);
	ff_mtd_close(m);
	close(fd);
	return rc;
}

const struct ff_command ff_command_flash = {"flash", cmd_flash,
	"write an image to an MTD device"};
