/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS 1.x-3.x reader (squashfs_legacy/): the probe, then open from a
 * memory source (superblock, id/fragment/export tables, codec detection),
 * the directory walk, file reads, links and the full check. */
#include <stdint.h>

#include "common/bsrc.h"
#include "common/format.h"
#include "tests/fuzz/fuzz_util.h"

extern const struct ff_format ff_format_squashfs_legacy;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ff_format *f = &ff_format_squashfs_legacy;
	struct ff_err err = {0};
	struct ff_open_opts o;
	struct ff_probe res = {0};
	struct ff_bsrc *src = ff_bsrc_mem(data, size, NULL, "fuzz", &err);
	struct ff_fs *fs = NULL;

	if (!src)
		return 0;
	fuzz_open_opts(&o);
	f->probe(src, 0, data, size < f->probe_len ? size : f->probe_len, &o, &res);
	if (f->open(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
