/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS 4.0 in the format registry: the probe decodes the superblock and
 * checks its tables lie in order inside bytes_used, which fits the source. */
#include <stdio.h>

#include "common/format.h"
#include "compress/compress.h"
#include "squashfs/format.h"
#include "squashfs/build.h"
#include "squashfs/reader.h"

static void describe(const struct sqfs_super *sb, struct ff_probe *res)
{
	struct ff_comp *comp = ff_comp_new_id(sb->compressor, sb->block_size, NULL);

	snprintf(res->detail, sizeof(res->detail), "%s, %u-byte blocks, %u inodes",
		 comp ? ff_comp_name(comp) : "unknown compressor", sb->block_size,
		 sb->inode_count);
	ff_comp_free(comp);
}

static int sqfs_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		      const struct ff_open_opts *opts, struct ff_probe *res)
{
	int order = sqfs_magic_order(buf, len);
	struct sqfs_super sb;

	(void)opts;
	if (order < 0)
		return 0;
	res->big_endian = order == SQFS_BE;
	res->confidence = FF_PROBE_MAGIC;
	/* Version 1-3 share the magic: decoding says which this reader takes. */
	if (len >= 32)
		snprintf(res->version, sizeof(res->version), "%u.%u",
			 sqfs_get16(buf + 28, (enum sqfs_order)order),
			 sqfs_get16(buf + 30, (enum sqfs_order)order));
	if (!ff_squashfs_probe_super(buf, len, src->size - off) ||
	    sqfs_super_decode(buf, &sb, NULL) < 0)
		return res->confidence;
	res->size = sb.bytes_used;
	describe(&sb, res);
	return res->confidence = FF_PROBE_VALID;
}

static const struct ff_magic sqfs_magics[] = {
	{ 0, 4, { 'h', 's', 'q', 's' } },
	{ 0, 4, { 's', 'q', 's', 'h' } }, /* big-endian (vendor toolchains) */
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_squashfs = {
	.name = "squashfs",
	.title = "SquashFS",
	.role = FF_ROLE_FS,
	.magics = sqfs_magics,
	.probe_len = SQFS_SUPER_SIZE,
	.probe = sqfs_probe,
	.open = ff_squashfs_open_src,
	.builder = "mkfs.squashfs",
	.build = &ff_squashfs_build,
};
