/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Private to the library: filling the public struct ff_error
 * (<flashfs/error.h>) that the ff_* API files hand back to callers. */
#ifndef FF_COMMON_API_ERROR_H
#define FF_COMMON_API_ERROR_H

#include <flashfs/error.h>

#include "common/error.h"

/* Copies an internal error out; returns -1. */
int ff_api_error(struct ff_error *out, const struct ff_err *in);
/* From a negative errno a common/fs.h operation returned: "WHAT: strerror";
 * returns -1. */
int ff_api_errno(struct ff_error *out, int neg_errno, const char *what);
/* Clears *out (NULL allowed) at the start of a call. */
void ff_api_clear(struct ff_error *out);

#endif
