/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* romfs reader: the registry's probe, then ff_romfs_open_src on the bytes
 * from memory and every operation of common/fs.h through fuzz_walk_fs. */
#include <stdint.h>

#include "common/bsrc.h"
#include "common/format.h"
#include "romfs/romfs.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern const struct ff_format ff_format_romfs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_fs *fs = NULL;
	struct ff_err err = { 0 };
	struct ff_probe res = { 0 };
	struct ff_bsrc *src = ff_bsrc_mem(data, size, NULL, "fuzz.romfs", &err);

	if (!src)
		return 0;
	fuzz_open_opts(&o);
	(void)ff_format_romfs.probe(src, 0, data,
				    size < ff_format_romfs.probe_len ? size
								     : ff_format_romfs.probe_len,
				    &o, &res);
	if (ff_romfs_open_src(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
