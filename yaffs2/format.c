/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* YAFFS2 in the format registry.  It has no magic: the probe first wants
 * an object header at the offset (cheap), and only there runs the geometry
 * detection, which reads pages and their tags (costly). */
#include <stdio.h>

#include "common/format.h"
#include "yaffs2/flash_map.h"
#include "yaffs2/obj_header.h"
#include "yaffs2/reader.h"
#include "yaffs2/scan.h"

static int y2_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct ff_yaffs2_opts y2o;
	struct ff_y2_layout lay;
	struct ff_err err = {0};
	int big;

	if (ff_yaffs2_probe_at(src, off, buf, len, opts) < 0 && off)
		return 0; /* no object header here (at 0 an image may start erased) */
	res->deep = 1;
	if (ff_y2_detect(src, off, src->size - off, ff_yaffs2_opts_of(opts, &y2o), &lay, &big,
			 &err) < 0) {
		snprintf(res->why, sizeof(res->why), "%.255s", err.msg);
		return 0;
	}
	res->big_endian = big;
	snprintf(res->detail, sizeof(res->detail), "%u+%u-byte pages, %u pages per block, %s tags",
		 lay.geom.page_size, lay.geom.oob_size, lay.geom.pages_per_block,
		 ff_y2_layout_name(lay.kind));
	return res->confidence = FF_PROBE_VALID;
}

const struct ff_format ff_format_yaffs2 = {
	.name = "yaffs2",
	.title = "YAFFS2",
	.role = FF_ROLE_FS,
	.scan_align = 512,
	.costly = 1,
	.probe_len = FF_Y2_OBJ_HEADER_MIN,
	.probe = y2_probe,
	.open = ff_yaffs2_open_src,
	.builder = "mkfs.yaffs2",
	.flash_map = ff_y2_flash_map,
};
