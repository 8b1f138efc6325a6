/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The compressor options block's byte order.  compress/ reads an options
 * block as little-endian bytes (ff_comp_options_read), which is what the
 * kernel and mksquashfs know.  A big-endian image stores the same fields
 * big-endian, so its block is put into little-endian order here, field by
 * field, before it is handed over: compress/ stays one reader of one
 * layout, and the byte order stays a matter of this folder.
 *
 * gzip's block is a u32 level then u16 window and u16 strategies; every
 * other codec's fields are u32 words (xz: dictionary, filters; lzo:
 * algorithm, level; lz4: version, flags; zstd: level).  A longer block
 * than the codec defines (OpenWrt's 12-byte xz one) is turned word by
 * word, the same way its writer would have stored it; a trailing partial
 * word is left as it is. */
#include "compress/compress.h"
#include "squashfs/format.h"

static void swap_bytes(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = t;
	}
}

void sqfs_comp_options_order(uint16_t compressor, enum sqfs_order o, uint8_t *buf, size_t len)
{
	static const uint8_t gzip_fields[] = {4, 2, 2};
	size_t pos = 0, f = 0;

	if (o == SQFS_LE)
		return;
	while (pos < len) {
		size_t w = compressor == FF_COMP_GZIP && f < sizeof(gzip_fields) ? gzip_fields[f] : 4;

		if (w > len - pos)
			break;
		swap_bytes(buf + pos, w);
		pos += w;
		f++;
	}
}
