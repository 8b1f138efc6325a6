/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The registry's pipeline on any bytes: every format's probe through a blob
 * scan, then the open of whatever is at offset 0 (containers unwrapped,
 * detected again) and a walk of what opened.  Every probe a format folder
 * registers is reached here without a target of its own. */
#include <stdint.h>

#include "image/image.h"
#include "image/scan.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_scan_result r;
	struct ff_err err = {0};
	struct ff_bsrc *src = ff_bsrc_mem(data, size, NULL, "fuzz", &err);
	struct ff_fs *fs = NULL;

	if (!src)
		return 0;
	fuzz_open_opts(&o);
	o.keep_container = 1;
	if (ff_scan(src, 0, UINT64_MAX, &o, &r) == 0)
		ff_scan_result_free(&r);
	if (ff_image_open_src(src, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	ff_bsrc_unref(src);
	return 0;
}
