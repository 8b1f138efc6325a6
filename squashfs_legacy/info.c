/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs info` facts: the superblock's fields, the compression met at
 * open, and inode counts by kind from a walk of the tree (these layouts
 * have no per-kind counts, and before 3.x no sequential inode numbers). */
#include <stdio.h>
#include <time.h>

#include "squashfs_legacy/walk.h"

static const char *const flag_names[] = {
	"uncompressed-inodes", "uncompressed-data", "check", "uncompressed-fragments",
	"no-fragments", "always-fragments", "duplicates", "exportable", NULL,
};

static void put_counts(struct lsq_rd *rd, ff_info_fn fn, void *ctx)
{
	struct lsq_walk w = {.rd = rd};

	if (lsq_walk_tree(&w) == 0) {
		ff_info_uint(fn, ctx, "directories", w.by_type[LSQ_DIR]);
		ff_info_uint(fn, ctx, "files", w.by_type[LSQ_FILE]);
		ff_info_uint(fn, ctx, "symlinks", w.by_type[LSQ_SYMLINK]);
		ff_info_uint(fn, ctx, "devices", w.by_type[LSQ_BLKDEV] + w.by_type[LSQ_CHRDEV]);
		ff_info_uint(fn, ctx, "fifos", w.by_type[LSQ_FIFO]);
		ff_info_uint(fn, ctx, "sockets", w.by_type[LSQ_SOCKET]);
	}
	lsq_walk_free(&w);
}

static void put_time(struct lsq_rd *rd, ff_info_fn fn, void *ctx)
{
	ff_info_time(fn, ctx, "mod_time", rd->sb.mkfs_time);
}

void lsq_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct lsq_rd *rd = (struct lsq_rd *)fs;
	char buf[256];

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "squashfs", NULL);
	lsq_super_version(&rd->sb, buf, sizeof(buf));
	ff_info_str(fn, ctx, "version", buf);
	ff_info_str(fn, ctx, "byte_order", rd->sb.big ? "big-endian" : "little-endian");
	lsq_codec_describe(&rd->codec, buf, sizeof(buf));
	ff_info_str(fn, ctx, "compressor", buf);
	ff_info_uint(fn, ctx, "block_size", rd->sb.block_size);
	ff_info_uint(fn, ctx, "bytes_used", rd->sb.bytes_used);
	ff_info_uint(fn, ctx, "inodes", rd->sb.inodes);
	put_counts(rd, fn, ctx);
	ff_info_uint(fn, ctx, "fragments", rd->sb.fragments);
	ff_info_uint(fn, ctx, "uids", rd->sb.no_uids);
	ff_info_uint(fn, ctx, "gids", rd->sb.no_guids);
	put_time(rd, fn, ctx);
	ff_info_names_text(rd->sb.flags, flag_names, buf, sizeof(buf));
	ff_info_names(fn, ctx, "flags", rd->sb.flags, flag_names, buf);
	ff_info_end(fn, ctx);
}
