/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The facts `flashfs info` shows for an EROFS image, in a stable order:
 * the superblock's fields, its features by name, the compression
 * algorithms it configures and the state of its checksum. */
#include <stdio.h>
#include <time.h>

#include "erofs/reader.h"

static void put_uuid(const uint8_t *u, ff_info_fn fn, void *ctx)
{
	char s[40];

	snprintf(s, sizeof(s), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7],
		 u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	ff_info_str(fn, ctx, "uuid", s);
}

static void put_features(const struct er_super *sb, ff_info_fn fn, void *ctx)
{
	char buf[256];

	er_compat_names(sb->compat, buf, sizeof(buf));
	ff_info_names(fn, ctx, "features_compat", sb->compat, er_compat_table(), buf);
	er_incompat_names(sb->incompat, buf, sizeof(buf));
	ff_info_names(fn, ctx, "features_incompat", sb->incompat, er_incompat_table(), buf);
}

/* Without stored configurations an image may only use LZ4, and says so
 * only by its LZ4 fields. */
static void put_algs(const struct er_super *sb, ff_info_fn fn, void *ctx)
{
	int cfgs = !!(sb->incompat & ER_INCOMPAT_COMPR_CFGS);
	int lz4 = cfgs || sb->lz4_max_distance || (sb->incompat & ER_INCOMPAT_LZ4_0PADDING);
	uint32_t algs = lz4 ? sb->algs : 0;
	char text[64] = "";
	size_t n = 0;

	for (unsigned a = 0; a < ER_ALG_MAX; a++)
		if (algs & (1u << a))
			n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", n ? "," : "",
					      er_alg_name(a));
	ff_info_begin(fn, ctx, FF_INFO_LIST, "compression", n ? text : "none");
	for (unsigned a = 0; a < ER_ALG_MAX; a++)
		if (algs & (1u << a))
			ff_info_str(fn, ctx, NULL, er_alg_name(a));
	ff_info_end(fn, ctx);
	if (sb->algs & (1u << ER_ALG_LZ4))
		ff_info_uint(fn, ctx, "lz4_max_distance", sb->lz4_max_distance);
	if (cfgs && (sb->algs & (1u << ER_ALG_LZ4)))
		ff_info_uint(fn, ctx, "lz4_max_pcluster_blocks", sb->lz4_max_pclusterblks);
	if (sb->algs & (1u << ER_ALG_LZMA))
		ff_info_uint(fn, ctx, "lzma_dict_size", sb->lzma_dict);
}

/* One key per fact: the time as a number, shown as a date in text. */
static void put_time(const struct er_super *sb, ff_info_fn fn, void *ctx)
{
	ff_info_time(fn, ctx, "build_time", (int64_t)(sb->epoch + sb->build_time));
}

void er_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	const struct er_rd *rd = (const struct er_rd *)fs;
	const struct er_super *sb = &rd->sb;

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "erofs", NULL);
	ff_info_uint(fn, ctx, "block_size", sb->blksz);
	ff_info_uint(fn, ctx, "blocks", sb->blocks);
	ff_info_uint(fn, ctx, "bytes", er_blkpos(rd, sb->blocks));
	ff_info_uint(fn, ctx, "inodes", sb->inos);
	put_features(sb, fn, ctx);
	put_algs(sb, fn, ctx);
	put_uuid(sb->uuid, fn, ctx);
	ff_info_str(fn, ctx, "volume_name", sb->volume_name);
	put_time(sb, fn, ctx);
	ff_info_str(fn, ctx, "checksum", sb->csum_state < 0 ? "none" :
					 sb->csum_state ? "crc32c ok" : "crc32c bad");
	ff_info_uint(fn, ctx, "root_nid", sb->root_nid);
	ff_info_uint(fn, ctx, "meta_blkaddr", sb->meta_blkaddr);
	ff_info_uint(fn, ctx, "xattr_blkaddr", sb->xattr_blkaddr);
	if (sb->packed_nid)
		ff_info_uint(fn, ctx, "packed_nid", sb->packed_nid);
	if (sb->xattr_prefix_count)
		ff_info_uint(fn, ctx, "xattr_long_prefixes", sb->xattr_prefix_count);
	ff_info_end(fn, ctx);
}
