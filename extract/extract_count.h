/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* What an extraction will write, counted from the image's metadata before
 * it starts, so the progress bar's totals are fixed from the first frame
 * (totals found while walking made the percentage jump back and forth). */
#ifndef FF_EXTRACT_EXTRACT_COUNT_H
#define FF_EXTRACT_EXTRACT_COUNT_H

#include <stdint.h>

#include "common/fs.h"

struct ff_extract_count {
	uint64_t bytes;  /* regular files' sizes, each hard-linked file once */
	uint64_t items;  /* entries, the top one included */
};

/* Adds the tree under handle (itself included) to c.  Unreadable parts are
 * skipped: extraction reports them.  Returns -1 when out of memory. */
int ff_extract_count(struct ff_fs *fs, uint64_t handle, struct ff_extract_count *c);

#endif
