/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* romfs in the format registry: the probe decodes the superblock and checks
 * its checksum and that the full size fits the source. */
#include <stdio.h>
#include <string.h>

#include "common/format.h"
#include "romfs/layout.h"
#include "romfs/romfs.h"

static int rf_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct rf_super sb;
	struct ff_err err = { 0, "" };

	(void)opts;
	if (len < 8 || memcmp(buf, RF_MAGIC, 8))
		return 0;
	res->big_endian = 1;
	res->confidence = FF_PROBE_MAGIC;
	if (rf_super_decode(buf, len, &sb, &err)) {
		snprintf(res->why, sizeof(res->why), "%s", err.msg);
		return res->confidence;
	}
	res->size = sb.full_size;
	snprintf(res->detail, sizeof(res->detail), "volume \"%.64s\", %u bytes%s%s", sb.volume,
		 sb.full_size, sb.sum_ok ? "" : ", bad checksum",
		 sb.full_size > src->size - off ? ", truncated" : "");
	if (sb.sum_ok && sb.full_size <= src->size - off)
		res->confidence = FF_PROBE_VALID;
	return res->confidence;
}

static const struct ff_magic rf_magics[] = {
	{ 0, 8, { '-', 'r', 'o', 'm', '1', 'f', 's', '-' } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_romfs = {
	.name = "romfs",
	.title = "romfs",
	.role = FF_ROLE_FS,
	.magics = rf_magics,
	.probe_len = RF_HDR_SIZE + RF_VOLUME_MAX + 1,
	.probe = rf_probe,
	.open = ff_romfs_open_src,
	.builder = "mkfs.romfs",
};
