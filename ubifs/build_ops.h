/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBIFS' build hook (tree/build.h), on its descriptor (format.c). */
#ifndef FF_UBIFS_BUILD_OPS_H
#define FF_UBIFS_BUILD_OPS_H

#include "tree/build.h"

extern const struct ff_build_ops ff_ubifs_build;

#endif
