/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* YAFFS2 scanner.  The first byte picks how the image is opened: full
 * detection, or one of a few fixed small geometries and tag layouts (the
 * seeds are built with 1024-byte pages and 2 pages per block to stay small;
 * bit 6 picks 512-byte inband pages). */
#include <stdint.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_util.h"
#include "yaffs2/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void pick_geometry(uint8_t sel, struct ff_flash_hint *o)
{
	static const char *const layouts[] = { "linux", "offset0", "inband" };
	static const char *const tags[] = { "kernel", "classic" };

	o->byte_order = FF_ORDER_DETECT;
	if ((sel & 7) == 0)
		return; /* detect everything */
	o->page_size = (sel & 8) ? 2048 : 1024;
	o->oob_size = o->page_size / 32;
	o->pages_per_block = (sel & 8) ? 64 : 2;
	o->oob_layout = layouts[(sel & 7) % 3];
	o->tags = tags[(sel >> 4) & 1];
	o->byte_order = (sel >> 5) & 1 ? FF_ORDER_BIG : FF_ORDER_LITTLE;
	if (sel & 0x40) { /* small-page chips: inband tags, headers cut to 496 bytes */
		o->page_size = 512;
		o->oob_size = 16;
		o->pages_per_block = 32;
		o->oob_layout = "inband";
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_fs *fs = NULL;
	struct ff_err err = { 0 };
	char path[64];
	int fd;

	if (size < 1)
		return 0;
	fuzz_open_opts(&o);
	pick_geometry(data[0], &o.flash);
	fuzz_memfd(data + 1, size - 1, &fd, path, sizeof(path));
	ff_yaffs2_probe(path, &o);
	if (ff_yaffs2_open(path, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	close(fd);
	return 0;
}
