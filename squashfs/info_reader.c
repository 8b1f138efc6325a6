/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs info` facts: superblock fields plus per-type counts from one
 * sequential pass over the inode table. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "squashfs/fs_reader.h"

struct counts {
	uint64_t by_type[8];
	int complete; /* 0 when the scan stopped on a damaged inode */
};

static void scan_inodes(struct sqfs_rd *rd, struct counts *c)
{
	struct sqfs_mpos pos = {rd->sb.inode_table, 0, rd->inode_end};
	struct ff_err err = {0};
	uint32_t i;

	c->complete = 0;
	for (i = 0; i < rd->sb.inode_count; i++) {
		struct sqfs_node n;
		uint64_t ref;

		if (sqfs_meta_normalize(rd, &pos, &err) < 0)
			return;
		ref = sqfs_ref(pos.block - rd->sb.inode_table, pos.offset);
		if (sqfs_node_load(rd, ref, &n, &err) < 0 || sqfs_node_skip_tail(rd, &n, &err) < 0)
			return;
		c->by_type[sqfs_basic_type(n.in.type)]++;
		pos = n.tail;
	}
	c->complete = 1;
}

static const char *const flag_names[] = {
	"uncompressed-inodes", "uncompressed-data", "check", "uncompressed-fragments",
	"no-fragments", "always-fragments", "duplicates", "exportable",
	"uncompressed-xattrs", "no-xattrs", "compressor-options", "uncompressed-ids", NULL,
};

/* Only what the image stores: without an options block the encoder's
 * settings are unknown (a reader assumes the codec's defaults). */
static void put_comp(struct sqfs_rd *rd, ff_info_fn fn, void *ctx)
{
	char buf[256];

	ff_info_str(fn, ctx, "compressor", ff_comp_name(rd->comp));
	if (!(rd->sb.flags & SQFS_FLAG_COMPRESSOR_OPTIONS)) {
		ff_info_null(fn, ctx, "compressor_options", "none stored");
		return;
	}
	ff_comp_describe_stored(rd->comp, buf, sizeof(buf));
	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "compressor_options", buf);
	ff_comp_options(rd->comp, 1, fn, ctx);
	ff_info_end(fn, ctx);
}

static void put_counts(struct sqfs_rd *rd, ff_info_fn fn, void *ctx)
{
	struct counts c = {{0}, 0};

	scan_inodes(rd, &c);
	if (!c.complete)
		return;
	ff_info_uint(fn, ctx, "directories", c.by_type[SQFS_DIR]);
	ff_info_uint(fn, ctx, "files", c.by_type[SQFS_FILE]);
	ff_info_uint(fn, ctx, "symlinks", c.by_type[SQFS_SYMLINK]);
	ff_info_uint(fn, ctx, "devices", c.by_type[SQFS_BLKDEV] + c.by_type[SQFS_CHRDEV]);
	ff_info_uint(fn, ctx, "fifos", c.by_type[SQFS_FIFO]);
	ff_info_uint(fn, ctx, "sockets", c.by_type[SQFS_SOCKET]);
}

void sqfs_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct sqfs_rd *rd = (struct sqfs_rd *)fs;
	char buf[512] = "";

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "squashfs", NULL);
	ff_info_str(fn, ctx, "byte_order", rd->sb.order == SQFS_BE ? "big" : "little");
	put_comp(rd, fn, ctx);
	ff_info_uint(fn, ctx, "block_size", rd->sb.block_size);
	ff_info_uint(fn, ctx, "bytes_used", rd->sb.bytes_used);
	ff_info_uint(fn, ctx, "inodes", rd->sb.inode_count);
	put_counts(rd, fn, ctx);
	ff_info_uint(fn, ctx, "fragments", rd->sb.fragment_count);
	ff_info_uint(fn, ctx, "ids", rd->sb.id_count);
	ff_info_uint(fn, ctx, "xattr_ids", rd->xattr_count);
	ff_info_time(fn, ctx, "mod_time", rd->sb.mod_time);
	ff_info_names_text(rd->sb.flags, flag_names, buf, sizeof(buf));
	ff_info_names(fn, ctx, "flags", rd->sb.flags, flag_names, buf);
	ff_info_end(fn, ctx);
}
