/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* CramFS reader: the probe, then open from a memory source and every
 * operation on every node (fuzz_walk_fs), then check.  The first byte
 * picks the block size given as a page-size hint (0: detect; else 512 <<
 * (byte % 8)), the rest is the image. */
#include <stdint.h>

#include "common/bsrc.h"
#include "common/format.h"
#include "cramfs/reader.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct ff_format ff_format_cramfs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_probe res = { 0 };
	struct ff_bsrc *src;
	struct ff_fs *fs = NULL;
	struct ff_err err = { 0 };
	size_t plen;

	if (size < 1)
		return 0;
	fuzz_open_opts(&o);
	o.flash.page_size = data[0] < 8 ? 0 : 512u << (data[0] % 8);
	src = ff_bsrc_mem(data + 1, size - 1, NULL, "fuzz", &err);
	if (!src)
		return 0;
	plen = size - 1 < ff_format_cramfs.probe_len ? size - 1 : ff_format_cramfs.probe_len;
	(void)ff_format_cramfs.probe(src, 0, data + 1, plen, &o, &res);
	if (ff_cramfs_open(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
