/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* JFFS2's build hook (tree/build.h), on its descriptor (format.c). */
#ifndef FF_JFFS2_BUILD_OPS_H
#define FF_JFFS2_BUILD_OPS_H

#include "tree/build.h"

extern const struct ff_build_ops ff_jffs2_build;

#endif
