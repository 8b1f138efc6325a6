/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* EROFS's build hook for the format registry (build.c; tree/build.h says
 * what it takes). */
#ifndef FF_EROFS_BUILD_H
#define FF_EROFS_BUILD_H

#include "tree/build.h"

extern const struct ff_build_ops ff_erofs_build;

#endif
