/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Opening paths below a directory fd without ever following a symlink. */
#ifndef FF_EXTRACT_EXTRACT_SAFE_H
#define FF_EXTRACT_EXTRACT_SAFE_H

#include <stddef.h>

/* openat() of a relative path that fails (ELOOP/EXDEV) rather than follow a
 * symlink or leave root. */
int ff_open_beneath(int root, const char *rel, int flags, unsigned mode);
/* Non-zero when name is usable as one path component. */
int ff_name_safe(const char *name, size_t len);

#endif
