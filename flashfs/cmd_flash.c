/* flashfs flash IMAGE /dev/mtdN: erase and write an image through libmtd
 * (mtd/mtd.h does the work).  SquashFS and raw images are written as
 * data only; YAFFS2 images as page data + tags with MTD_OPS_AUTO_OOB. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fd_size.h"
#include "flashfs/commands.h"
#include "image/image.h"
#include "mtd/mtd.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: flashfs flash [OPTIONS] IMAGE /dev/mtdN\n"
		"Erase the device and write IMAGE, skipping bad blocks (image blocks move to\n"
		"the next good block, as nandwrite does), then read every page back.\n\n"
		"  --raw                 data only, no OOB (SquashFS and raw images; the\n"
		"                        default for SquashFS)\n"
		"  --no-verify           do not read back and compare\n"
		"  -q, --quiet           no progress or summary\n"
		"YAFFS2 images (tags written with MTD_OPS_AUTO_OOB):\n"
		FF_MTD_Y2_USAGE
		"\nExit status: 0 ok, 1 write or verify failed, 2 usage or refused\n"
		"(geometry mismatch, device too small for the image and its bad blocks).\n");
}

/* ctx: an int set once a progress line is open, so an error starts a new line */
static void progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
	*(int *)ctx = done != total;
	fprintf(stderr, "\rflashfs flash: %s block %llu/%llu%s", phase,
		(unsigned long long)done, (unsigned long long)total, done == total ? "\n" : "");
}

struct flash_args {
	const char *image, *dev;
	int raw, verify, quiet;
	struct ff_mtd_y2_spec spec;
	int have_spec;
};

static int parse(int argc, char **argv, struct flash_args *a)
{
	static const struct option opts[] = {
		{"raw", no_argument, NULL, 'r'}, {"no-verify", no_argument, NULL, 'V'},
		{"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},
		FF_MTD_Y2_OPTIONS, {NULL, 0, NULL, 0}};
	int c;

	memset(a, 0, sizeof(*a));
	a->verify = 1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
		struct ff_err err = {0};
		int r = ff_mtd_y2_option(&a->spec, c, optarg, &err);

		if (r > 0) {
			a->have_spec = 1;
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
	if (a->raw && a->have_spec) {
		fprintf(stderr, "flashfs flash: --raw does not go with the YAFFS2 options\n");
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

/* The layout to write with: from the options, else detected and checked
 * against the device.  Returns 1 for a YAFFS2 image, 0 for raw, -1 after
 * printing why the image is refused. */
static int pick_layout(const struct flash_args *a, int fd, uint64_t size, struct ff_mtd *m,
		       struct ff_y2_layout *lay)
{
	struct ff_err err = {0};
	int kind;

	if (a->have_spec) {
		if (!ff_mtd_y2_layout(m, &a->spec, lay, &err))
			return 1;
	} else {
		kind = ff_image_flash_kind(fd, size, a->raw, lay);
		if (kind == FF_IMAGE_FLASH_RAW)
			return 0;
		if (kind < 0) {
			fprintf(stderr, "flashfs flash: %s: neither SquashFS, UBI nor YAFFS2; give --raw "
					"for a raw image, or the YAFFS2 options\n", a->image);
			return -1;
		}
		if (!ff_mtd_y2_check(m, lay, &err))
			return 1;
	}
	fprintf(stderr, "flashfs flash: %s: %s\n", a->image, err.msg);
	return -1;
}

static int run(const struct flash_args *a, int fd, uint64_t size, struct ff_mtd *m)
{
	struct ff_err err = {0};
	struct ff_y2_layout lay;
	struct ff_mtd_pagemap map;
	int line_open = 0;
	struct ff_mtd_flash_opts o = {NULL, a->verify, a->quiet ? NULL : progress, &line_open};
	struct ff_mtd_stats st;
	int kind = pick_layout(a, fd, size, m, &lay);

	if (kind < 0)
		return 2;
	if (kind == 1) {
		ff_mtd_y2_map(&lay, &map);
		o.map = &map;
	}
	if (ff_mtd_flash(m, fd, size, &o, &st, &err)) {
		fprintf(stderr, "%sflashfs flash: %s: %s\n", line_open ? "\n" : "", a->image, err.msg);
		return err.code == ENOSPC || err.code == EINVAL ? 2 : 1;
	}
	if (!a->quiet)
		printf("flashfs flash: %s -> %s: %llu bytes, %llu pages in %u erase blocks, "
		       "%u bad blocks skipped, %s%s\n",
		       a->image, a->dev, (unsigned long long)st.bytes, (unsigned long long)st.pages,
		       st.blocks, st.bad_skipped,
		       o.map ? "YAFFS2 data + tags (AUTO OOB)" : "data only",
		       a->verify ? ", verified" : "");
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
