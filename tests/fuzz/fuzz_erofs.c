/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* EROFS reader: the probe, then open from memory (superblock, checksum,
 * compression configurations, long xattr prefixes) and every operation
 * through fuzz_walk_fs, with the full check.  Unless bit 0 of the first
 * byte (in the unused boot area) is set, the superblock's crc32c is first
 * made right again, so mutations get past it into the inodes, indexes and
 * pclusters; with the bit set, the checksum path itself is fuzzed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/crc.h"
#include "common/endian.h"

#include "common/bsrc.h"
#include "common/format.h"
#include "erofs/reader.h"
#include "tests/fuzz/fuzz_util.h"

extern const struct ff_format ff_format_erofs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fix_csum(uint8_t *img, size_t size)
{
	uint32_t bits, len;

	if (size < ER_SUPER_OFFSET + ER_SUPER_SIZE || (img[0] & 1))
		return;
	bits = img[ER_SUPER_OFFSET + ER_SB_BLKSZBITS];
	if (bits < 9 || bits > 16)
		return;
	len = (1u << bits) > ER_SUPER_OFFSET ? (1u << bits) - ER_SUPER_OFFSET : 1u << bits;
	if (ER_SUPER_OFFSET + len > size)
		return;
	memset(img + ER_SUPER_OFFSET + ER_SB_CHECKSUM, 0, 4);
	ff_put_le32(img + ER_SUPER_OFFSET + ER_SB_CHECKSUM,
		    ff_crc32c(~0u, img + ER_SUPER_OFFSET, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_probe res = {0};
	struct ff_fs *fs = NULL;
	struct ff_err err = {0};
	uint8_t *img = malloc(size ? size : 1);
	struct ff_bsrc *src;
	size_t plen = ff_format_erofs.probe_len;

	if (!img)
		return 0;
	memcpy(img, data, size);
	fix_csum(img, size);
	if (!(src = ff_bsrc_mem(img, size, free, "fuzz", &err))) {
		free(img);
		return 0;
	}
	data = img;
	fuzz_open_opts(&o);
	o.cache_bytes = 4u << 20;
	ff_format_erofs.probe(src, 0, data, size < plen ? size : plen, &o, &res);
	if (ff_erofs_open_src(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
