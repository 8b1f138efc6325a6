/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public SquashFS writer (<flashfs/squashfs.h>): options mapped onto
 * struct ff_sqfs_write_opts, the rest is ff_sqfs_write as mkfs.squashfs
 * calls it. */
#include <errno.h>
#include <string.h>

#include <flashfs/squashfs.h>

#include "common/api_error.h"
#include "compress/api_codec.h"
#include "squashfs/writer.h"
#include "tree/api_fstree.h"

void ff_squashfs_options_init(struct ff_squashfs_options *o)
{
	memset(o, 0, sizeof(*o));
	o->codec = "gzip";
	o->block_size = 128 * 1024;
	o->mkfs_time = -1;
}

static int check_block_size(uint32_t bs, struct ff_err *err)
{
	if (bs < 4096 || bs > (1u << 20) || (bs & (bs - 1)))
		return ff_err_set(err, EINVAL,
				  "block size %u: expected a power of two from 4096 to 1048576", bs);
	return 0;
}

static int write_image(struct ff_fstree *t, const char *path, const struct ff_squashfs_options *o,
		       struct ff_err *err)
{
	const struct ff_tree *tree;
	struct ff_sqfs_write_stats st;
	struct ff_comp *comp;
	int r = -1;

	if (check_block_size(o->block_size, err))
		return -1;
	comp = ff_comp_new(o->codec ? o->codec : "gzip", o->block_size, err);
	if (!comp)
		return -1;
	if (ff_api_comp_set_options(comp, o->codec_options, err) == 0 &&
	    (tree = ff_api_fstree_finish(t, err))) {
		struct ff_sqfs_write_opts wo = {
			.comp = comp, .block_size = o->block_size, .jobs = o->jobs,
			.mkfs_time = o->mkfs_time, .no_fragments = o->no_fragments,
			.no_dedup = o->no_dedup, .no_exports = o->no_exports,
			.no_sparse = o->no_sparse, .no_xattrs = ff_api_fstree_no_xattrs(t),
		};
		r = ff_sqfs_write(tree, &wo, path, &st, err);
	}
	ff_comp_free(comp);
	return r;
}

int ff_squashfs_write(struct ff_fstree *t, const char *path, const struct ff_squashfs_options *o,
		      struct ff_error *error)
{
	struct ff_squashfs_options defaults;
	struct ff_err err = { 0, "" };

	ff_api_clear(error);
	if (!o) {
		ff_squashfs_options_init(&defaults);
		o = &defaults;
	}
	if (write_image(t, path, o, &err)) {
		ff_err_prefix(&err, "%s", path);
		return ff_api_error(error, &err);
	}
	return 0;
}
