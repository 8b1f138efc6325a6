/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#ifndef FF_JFFS2_EXTENT_H
#define FF_JFFS2_EXTENT_H

#include <stdint.h>

#include "common/bsrc.h"

/* The end offset of the JFFS2 image whose first node is at off (nodes and
 * the erased runs between them, in the byte order big). */
uint64_t j2_extent(struct ff_bsrc *src, uint64_t off, int big);

#endif
