/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JFFS2 reader: geometry detection, the erase-block scan, the tree build,
 * then every operation through fuzz_walk_fs (which decompresses every
 * file's nodes: rtime, rubin, zlib, LZO, LZMA).  The first byte picks the
 * hint: its low 3 bits an erase size (0 detect, else 1 KiB << n), bit 3
 * and 4 the byte order (detect, little, big); the rest is the image, read
 * from memory. */
#include <stdint.h>

#include "common/bsrc.h"
#include "jffs2/reader.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_fs *fs = NULL;
	struct ff_err err = { 0 };
	struct ff_bsrc *src;
	static const enum ff_byte_order orders[4] = { FF_ORDER_DETECT, FF_ORDER_LITTLE,
						      FF_ORDER_BIG, FF_ORDER_DETECT };

	if (size < 1)
		return 0;
	fuzz_open_opts(&o);
	o.flash.erase_size = data[0] & 7 ? 1024u << (data[0] & 7) : 0;
	o.flash.byte_order = orders[(data[0] >> 3) & 3];
	src = ff_bsrc_mem(data + 1, size - 1, NULL, "fuzz.jffs2", &err);
	if (!src)
		return 0;
	if (ff_jffs2_open(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
