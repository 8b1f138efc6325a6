/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The inner image of a container, with the container's layer shown by
 * `info` and `check` (layered_fs.c). */
#ifndef FF_IMAGE_LAYERED_FS_H
#define FF_IMAGE_LAYERED_FS_H

#include "common/error.h"
#include "common/format.h"
#include "common/fs.h"

/* Takes ownership of inner and of *u (released with the result, or at
 * once on failure); the result's format is `container`. */
struct ff_fs *ff_layered_fs(struct ff_fs *inner, struct ff_unwrapped *u, const char *container,
			    uint64_t outer_bytes, struct ff_err *err);

/* Drops u's inner source and closes its container state. */
void ff_unwrapped_release(struct ff_unwrapped *u);

#endif
