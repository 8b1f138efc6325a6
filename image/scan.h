/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Finding images inside a blob (a firmware file, a flash dump): every byte
 * offset where a registered format's magic allows one, each candidate
 * validated by its probe before it is reported (`flashfs scan`, and the
 * --offset hint of the other commands). */
#ifndef FF_IMAGE_SCAN_H
#define FF_IMAGE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "image/identify.h"

struct ff_scan_hit {
	uint64_t off;
	struct ff_found found;
};

struct ff_scan_result {
	struct ff_scan_hit *hits; /* by offset; none inside an earlier hit of known size */
	size_t n;
};

/* Scans [start, end) of src (end UINT64_MAX: to its end).  0, or a
 * negative errno when src could not be read or memory ran out. */
int ff_scan(struct ff_bsrc *src, uint64_t start, uint64_t end, const struct ff_open_opts *opts,
	    struct ff_scan_result *out);
void ff_scan_result_free(struct ff_scan_result *r);

#endif
