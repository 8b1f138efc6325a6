/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The page map (common/flashmap.h) that writes a YAFFS2 image's tags to
 * the OOB through MTD_OPS_AUTO_OOB and reads them back: the flash_map of
 * ff_format_yaffs2. */
#ifndef FF_YAFFS2_FLASH_MAP_H
#define FF_YAFFS2_FLASH_MAP_H

#include "common/bsrc.h"
#include "common/error.h"
#include "common/flashmap.h"
#include "yaffs2/oob_layout.h"

/* The hook (common/format.h): the layout from s (geometry from dev, the
 * chip preset and the sizes given) or detected from src, checked against
 * dev when given. */
int ff_y2_flash_map(struct ff_bsrc *src, const struct ff_flash_layout *s,
		    const struct ff_flash_dev *dev, struct ff_pagemap *map, struct ff_err *err);

/* A map over lay, which must outlive it (map->release is NULL). */
void ff_y2_pagemap(const struct ff_y2_layout *lay, struct ff_pagemap *map);

/* Refuses, naming both geometries, a layout that does not match the device
 * (page, OOB, pages per block, and the free OOB bytes of AUTO placement). */
int ff_y2_flash_check(const struct ff_y2_layout *lay, const struct ff_flash_dev *dev,
		      struct ff_err *err);

#endif
