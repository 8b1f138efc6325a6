/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Private to the library: what the public API files share of compress/. */
#ifndef FF_COMPRESS_API_CODEC_H
#define FF_COMPRESS_API_CODEC_H

#include "common/error.h"
#include "compress/compress.h"

/* "key=value,key" (NULL or "" = none), one item at a time through
 * ff_comp_set_option_str, as <flashfs/codec.h> documents. */
int ff_api_comp_set_options(struct ff_comp *comp, const char *options, struct ff_err *err);

#endif
