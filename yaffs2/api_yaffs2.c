/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public YAFFS2 writer (<flashfs/yaffs2.h>): geometry and layout from
 * the options, then ff_y2_write_file as mkfs.yaffs2 calls it. */
#include <errno.h>
#include <string.h>

#include <flashfs/yaffs2.h>

#include "common/api_error.h"
#include "tree/api_fstree.h"
#include "yaffs2/writer.h"

void ff_yaffs2_options_init(struct ff_yaffs2_options *o)
{
	struct ff_y2_geom g;

	memset(o, 0, sizeof(*o));
	ff_y2_geom_default(&g);
	o->page_size = g.page_size;
	o->pages_per_block = g.pages_per_block;
	o->big_endian = -1;
}

static int setup(const struct ff_yaffs2_options *o, struct ff_y2_write_opts *wo,
		 struct ff_err *err)
{
	struct ff_y2_geom g = { .page_size = o->page_size, .oob_size = o->oob_size,
				.pages_per_block = o->pages_per_block };
	uint16_t probe = 1;

	if (!g.oob_size)
		g.oob_size = ff_y2_default_oob(g.page_size);
	if (ff_y2_geom_check(&g, err) ||
	    ff_y2_layout_init(&wo->layout, &g, o->oob_layout, o->ecc, !o->no_tags_ecc, err))
		return -1;
	wo->big_endian = o->big_endian < 0 ? *(uint8_t *)&probe == 0 : o->big_endian != 0;
	wo->classic_tags = o->classic_tags;
	wo->root_header = 1;
	return 0;
}

int ff_yaffs2_write(struct ff_fstree *t, const char *path, const struct ff_yaffs2_options *o,
		    struct ff_error *error)
{
	struct ff_yaffs2_options defaults;
	struct ff_y2_write_opts wo;
	struct ff_y2_write_stats st;
	struct ff_err err = { 0, "" };
	const struct ff_tree *tree;

	ff_api_clear(error);
	if (!o) {
		ff_yaffs2_options_init(&defaults);
		o = &defaults;
	}
	memset(&wo, 0, sizeof(wo));
	if (setup(o, &wo, &err) || !(tree = ff_api_fstree_finish(t, &err)) ||
	    ff_y2_write_file(tree, &wo, path, o->container, &st, &err)) {
		ff_err_prefix(&err, "%s", path);
		return ff_api_error(error, &err);
	}
	return 0;
}
