/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS 1.x, 2.x and 3.x in the format registry, under the same name as
 * the 4.0 reader ("squashfs"): the probe decodes the superblock of either
 * byte order and the tables' order inside bytes_used, which fits the
 * source, and answers only for the layouts before 4.0. */
#include <errno.h>
#include <stdio.h>

#include "common/format.h"
#include "squashfs_legacy/legacy.h"

static int lsq_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		     const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct lsq_super sb;
	struct ff_err err = {0};
	int big, alt;

	(void)opts;
	if (!lsq_magic_match(buf, len, &big, &alt))
		return 0;
	if (lsq_super_decode(buf, len, src->size - off, &sb, &err) < 0) {
		/* A 1.x-3.x version under the magic: ours to open (and refuse
		 * with the reason), ahead of the 4.0 reader's magic-only match. */
		if (err.code != EIO)
			return 0;
		res->big_endian = big;
		snprintf(res->detail, sizeof(res->detail), "%.100s", err.msg);
		return res->confidence = FF_PROBE_MAGIC + 5;
	}
	res->big_endian = sb.big;
	lsq_super_version(&sb, res->version, sizeof(res->version));
	res->size = sb.bytes_used;
	snprintf(res->detail, sizeof(res->detail), "%u-byte blocks, %u inodes%s", sb.block_size,
		 sb.inodes,
		 sb.alt_magic || sb.minor == 0x4c ? ", LZMA build" : "");
	return res->confidence = FF_PROBE_VALID;
}

static const struct ff_magic lsq_magics[] = {
	{0, 4, {'h', 's', 'q', 's'}},
	{0, 4, {'s', 'q', 's', 'h'}},
	{0, 4, {'s', 'h', 's', 'q'}},
	{0, 4, {'q', 's', 'h', 's'}},
	{0, 0, {0}},
};

const struct ff_format ff_format_squashfs_legacy = {
	.name = "squashfs",
	.title = "SquashFS 1.x-3.x",
	.role = FF_ROLE_FS,
	.magics = lsq_magics,
	.probe_len = LSQ_SUPER_MAX,
	.probe = lsq_probe,
	.open = lsq_open,
};
