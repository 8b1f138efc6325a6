/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JFFS2 in the format registry.  An image starts with a node (usually a
 * cleanmarker, else a dirent or inode): its magic 0x1985 in either byte
 * order and a sound header CRC make the probe sure.  JFFS2 stores no size:
 * the image runs as far as its nodes and erased runs do (extent.c). */
#include <stdio.h>

#include "common/endian.h"
#include "common/format.h"
#include "jffs2/build_ops.h"
#include "jffs2/extent.h"
#include "jffs2/node.h"
#include "jffs2/reader.h"

static const char *type_name(uint16_t type)
{
	switch (type) {
	case J2_NT_CLEANMARKER: return "cleanmarker";
	case J2_NT_PADDING: return "padding";
	case J2_NT_DIRENT: return "dirent";
	case J2_NT_INODE: return "inode";
	case J2_NT_SUMMARY: return "summary";
	case J2_NT_XATTR: return "xattr";
	case J2_NT_XREF: return "xref";
	default: return "unknown";
	}
}

static int j2_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct j2_hdr h;
	int big;

	(void)opts;
	if (len < J2_HDR_SIZE)
		return 0;
	big = buf[0] == 0x19 && buf[1] == 0x85;
	if (!j2_hdr_decode(buf, big, &h) || h.totlen < J2_HDR_SIZE ||
	    h.totlen > src->size - off)
		return 0;
	res->big_endian = big;
	res->size = j2_extent(src, off, big) - off;
	snprintf(res->detail, sizeof(res->detail), "first node %s (%u bytes)",
		 type_name(h.type | J2_ACCURATE), h.totlen);
	return res->confidence = FF_PROBE_VALID;
}

static const struct ff_magic j2_magics[] = {
	{ 0, 2, { 0x85, 0x19 } },
	{ 0, 2, { 0x19, 0x85 } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_jffs2 = {
	.name = "jffs2",
	.title = "JFFS2",
	.role = FF_ROLE_FS,
	.magics = j2_magics,
	.probe_len = J2_HDR_SIZE,
	.probe = j2_probe,
	.open = ff_jffs2_open,
	.builder = "ffmkfs.jffs2",
	.build = &ff_jffs2_build,
};
