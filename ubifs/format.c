/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBIFS in the format registry: the probe decodes the superblock node at
 * the start (its CRC, geometry and areas) and reports the format version,
 * LEB size and compressor; open replays the journal (reader.c). */
#include <stdio.h>

#include "common/endian.h"
#include "common/format.h"
#include "ubifs/build_ops.h"
#include "ubifs/ubifs.h"

static int ubifs_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		       const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct ubifs_super sb;

	(void)opts;
	if (len < UBIFS_CH_SZ || ff_get_le32(buf) != UBIFS_MAGIC || buf[CH_TYPE] != UBIFS_SB_NODE)
		return 0;
	res->big_endian = 0;
	res->confidence = FF_PROBE_MAGIC;
	if (ubifs_super_decode(buf, len, src->size - off, &sb, NULL) < 0)
		return res->confidence;
	snprintf(res->version, sizeof(res->version), "%u", sb.fmt_version);
	res->size = (uint64_t)sb.leb_cnt * sb.leb_size;
	if (res->size > src->size - off)
		res->size = src->size - off;
	snprintf(res->detail, sizeof(res->detail), "LEB %u bytes, min. I/O %u, %u LEBs, %s%s%s",
		 sb.leb_size, sb.min_io, sb.leb_cnt, ubifs_compr_name(sb.default_compr),
		 sb.flags & UBIFS_FLG_ENCRYPTION ? ", encrypted" : "",
		 sb.flags & UBIFS_FLG_AUTHENTICATION ? ", authenticated" : "");
	return res->confidence = FF_PROBE_VALID;
}

static const struct ff_magic ubifs_magics[] = {
	/* the node magic, then the superblock node's type at byte 20 is
	 * checked by the probe */
	{ 0, 4, { 0x31, 0x18, 0x10, 0x06 } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_ubifs = {
	.name = "ubifs",
	.title = "UBIFS",
	.role = FF_ROLE_FS,
	.magics = ubifs_magics,
	.probe_len = UBIFS_SB_NODE_SZ,
	.probe = ubifs_probe,
	.open = ubifs_open,
	.builder = "ffmkfs.ubifs",
	.build = &ff_ubifs_build,
};
