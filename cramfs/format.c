/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* CramFS in the format registry.  The magic is at 0, or at 512 behind
 * room for boot code, in either byte order.  The probe is sure only when
 * the superblock passes the kernel's checks and, for a version 2 image
 * up to PROBE_CRC_MAX bytes, the CRC matches. */
#include <stdio.h>
#include <string.h>

#include "common/endian.h"
#include "common/format.h"
#include "cramfs/reader.h"

/* Larger images are not read whole just to be named (a CramFS image is
 * at most 256 MiB); check and extract still check their CRC. */
#define PROBE_CRC_MAX (32u << 20)

static void describe(struct ff_bsrc *src, const struct cr_super *sb, struct ff_probe *res)
{
	uint32_t crc;
	int v2 = !!(sb->flags & CR_FLAG_FSID_V2);

	res->big_endian = sb->big;
	res->size = cr_super_span(sb, src->size);
	snprintf(res->version, sizeof(res->version), "%d", v2 ? 2 : 1);
	snprintf(res->detail, sizeof(res->detail), "%s\"%.16s\"%s",
		 sb->start ? "512-byte pad, " : "", (const char *)sb->name,
		 sb->flags & CR_FLAG_HOLES ? ", holes" : "");
	if (v2 && sb->size > PROBE_CRC_MAX) {
		snprintf(res->detail + strlen(res->detail), sizeof(res->detail) - strlen(res->detail),
			 ", CRC not checked");
	} else if (v2 && (cr_super_crc(src, sb, &crc, NULL) || crc != sb->crc)) {
		snprintf(res->detail + strlen(res->detail), sizeof(res->detail) - strlen(res->detail),
			 ", CRC mismatch");
		return;
	}
	res->confidence = FF_PROBE_VALID;
}

static int cr_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct ff_bsrc *win;
	struct cr_super sb;
	int big;

	(void)opts;
	if (!(len >= 4 && cr_magic_at(buf, &big)) &&
	    !(len >= CR_PAD_SIZE + 4 && cr_magic_at(buf + CR_PAD_SIZE, &big)))
		return 0;
	res->confidence = FF_PROBE_MAGIC;
	win = off ? ff_bsrc_window(src, off, UINT64_MAX, NULL) : ff_bsrc_ref(src);
	if (!win)
		return res->confidence;
	if (cr_super_read(win, &sb, NULL) == 0)
		describe(win, &sb, res);
	ff_bsrc_unref(win);
	return res->confidence;
}

/* The pad variant's magic sits 512 bytes in, after zeros. */
static const struct ff_magic cr_magics[] = {
	{ 0, 4, { 0x45, 0x3d, 0xcd, 0x28 } },
	{ 0, 4, { 0x28, 0xcd, 0x3d, 0x45 } },
	{ CR_PAD_SIZE, 4, { 0x45, 0x3d, 0xcd, 0x28 } },
	{ CR_PAD_SIZE, 4, { 0x28, 0xcd, 0x3d, 0x45 } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_cramfs = {
	.name = "cramfs",
	.title = "CramFS",
	.role = FF_ROLE_FS,
	.magics = cr_magics,
	.probe_len = CR_PAD_SIZE + CR_SUPER_SIZE,
	.probe = cr_probe,
	.open = ff_cramfs_open,
	.builder = "ffmkfs.cramfs",
};
