/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* What stands for a container's inside that could not be opened, so that
 * `info` and `check` still show the container's own layer (a UBI image's
 * volumes): an empty root directory; info gives the reason, and check
 * reports it as a problem. */
#ifndef FF_IMAGE_UNOPENED_FS_H
#define FF_IMAGE_UNOPENED_FS_H

#include "common/error.h"
#include "common/fs.h"

struct ff_fs *ff_unopened_fs(const char *why, struct ff_err *err);

#endif
