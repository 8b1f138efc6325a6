/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The registry: the only list of formats (registry.c), and what image/
 * asks of it.  A new format is one folder plus one line in registry.c. */
#ifndef FF_IMAGE_REGISTRY_H
#define FF_IMAGE_REGISTRY_H

#include <stddef.h>

#include "common/format.h"

size_t ff_format_count(void);
const struct ff_format *ff_format_at(size_t i);
/* By name or alias, case-insensitive; NULL when none. */
const struct ff_format *ff_format_find(const char *name);

/* What a format can do, for `flashfs formats`: FF_CAN_* bits. */
#define FF_CAN_DETECT 1u
#define FF_CAN_READ 2u
#define FF_CAN_MOUNT 4u
#define FF_CAN_BUILD 8u
unsigned ff_format_abilities(const struct ff_format *f);

#endif
