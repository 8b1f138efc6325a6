/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* EROFS in the format registry: the probe decodes the superblock at byte
 * 1024, checks its crc32c when the image says it has one, and wants the
 * blocks it counts inside the source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "common/format.h"
#include "erofs/build.h"
#include "erofs/reader.h"

static int csum_ok(struct ff_bsrc *src, uint64_t off, struct er_super *sb, char *why,
		   size_t cap)
{
	struct ff_bsrc *win;
	struct ff_err err = {0};
	struct er_super full;
	int ok;

	if (sb->csum_state < 0)
		return 1;
	if (!(win = ff_bsrc_window(src, off, UINT64_MAX, &err)))
		return 0;
	ok = er_super_read(win, &full, &err) == 0;
	ff_bsrc_unref(win);
	if (!ok)
		snprintf(why, cap, "%.250s", err.msg);
	return ok;
}

static void describe(const struct er_super *sb, struct ff_probe *res)
{
	char algs[64] = "";
	size_t n = 0;

	for (unsigned a = 0; a < ER_ALG_MAX; a++)
		if (sb->algs & (1u << a))
			n += (size_t)snprintf(algs + n, sizeof(algs) - n, "%s%s", n ? "+" : "",
					      er_alg_name(a));
	snprintf(res->detail, sizeof(res->detail), "%u-byte blocks, %s, %llu inodes%s",
		 sb->blksz, n ? algs : "uncompressed", (unsigned long long)sb->inos,
		 sb->csum_state > 0 ? ", crc32c ok" : "");
}

static int er_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct ff_err err = {0};
	struct er_super sb;

	(void)opts;
	if (len < ER_SUPER_OFFSET + ER_SUPER_SIZE ||
	    ff_get_le32(buf + ER_SUPER_OFFSET) != ER_SUPER_MAGIC)
		return 0;
	res->big_endian = 0;
	res->confidence = FF_PROBE_MAGIC;
	if (er_super_decode(buf + ER_SUPER_OFFSET, &sb, &err) < 0) {
		snprintf(res->why, sizeof(res->why), "%.250s", err.msg);
		return res->confidence;
	}
	res->size = (uint64_t)sb.blocks << sb.blkszbits;
	if (res->size > src->size - off) {
		snprintf(res->why, sizeof(res->why), "%llu blocks of %u bytes, %llu in the source",
			 (unsigned long long)sb.blocks, sb.blksz,
			 (unsigned long long)(src->size - off));
		return res->confidence;
	}
	if (!csum_ok(src, off, &sb, res->why, sizeof(res->why)))
		return res->confidence;
	describe(&sb, res);
	return res->confidence = FF_PROBE_VALID;
}

static const struct ff_magic er_magics[] = {
	{ ER_SUPER_OFFSET, 4, { 0xe2, 0xe1, 0xf5, 0xe0 } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_erofs = {
	.name = "erofs",
	.title = "EROFS",
	.role = FF_ROLE_FS,
	.magics = er_magics,
	.probe_len = ER_SUPER_OFFSET + ER_SUPER_SIZE,
	.probe = er_probe,
	.open = ff_erofs_open_src,
	.builder = "ffmkfs.erofs",
	.build = &ff_erofs_build,
};
