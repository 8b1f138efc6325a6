/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBIFS reader: open (superblock, master, journal replay) and every
 * operation on what opens.  A UBIFS image is mostly erased space, so an
 * input is a list of LEB heads, each a 16-bit little-endian length and
 * that many bytes; every LEB is its head then 0xff up to the LEB size the
 * first head's superblock names (kept to 15 KiB .. 64 KiB, at most 64
 * LEBs).  Mutations then land on nodes, not on erased bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bsrc.h"
#include "common/format.h"
#include "tests/fuzz/fuzz_util.h"

extern const struct ff_format ff_format_ubifs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LEBS 64u

static uint32_t leb_size_of(const uint8_t *data, size_t size)
{
	uint32_t v;

	if (size < 2 + 40)
		return 15872;
	v = (uint32_t)data[2 + 36] | (uint32_t)data[2 + 37] << 8 | (uint32_t)data[2 + 38] << 16 |
	    (uint32_t)data[2 + 39] << 24;
	return v < 15360 || v > 65536 ? 15872 : v;
}

static uint8_t *expand(const uint8_t *data, size_t size, size_t *out_len)
{
	uint32_t leb = leb_size_of(data, size);
	uint8_t *img = malloc((size_t)leb * MAX_LEBS);
	size_t pos = 0, n = 0;

	if (!img)
		return NULL;
	memset(img, 0xff, (size_t)leb * MAX_LEBS);
	while (pos + 2 <= size && n < MAX_LEBS) {
		size_t len = (size_t)data[pos] | (size_t)data[pos + 1] << 8;

		pos += 2;
		if (len > size - pos)
			len = size - pos;
		memcpy(img + n * leb, data + pos, len < leb ? len : leb);
		pos += len;
		n++;
	}
	*out_len = n * leb;
	return img;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_err err = { 0 };
	struct ff_probe probe;
	struct ff_bsrc *src;
	struct ff_fs *fs = NULL;
	size_t len = 0;
	uint8_t *img = expand(data, size, &len);

	if (!img)
		return 0;
	src = ff_bsrc_mem(img, len, free, "fuzz.ubifs", &err);
	if (!src) {
		free(img);
		return 0;
	}
	fuzz_open_opts(&o);
	memset(&probe, 0, sizeof(probe));
	if (len >= 4096)
		(void)ff_format_ubifs.probe(src, 0, img, 4096, &o, &probe);
	if (ff_format_ubifs.open(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
