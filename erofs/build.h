/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* EROFS's build hook for the format registry (build.c; tree/build.h says
 * what it takes). */
#ifndef FF_EROFS_BUILD_H
#define FF_EROFS_BUILD_H

#include "erofs/writer.h"
#include "tree/build.h"

extern const struct ff_build_ops ff_erofs_build;

/* Applies one word of mkfs.erofs' -E (the same table the build hook's
 * flags list): 0, or -1 when the word is not one the writer has. */
int ff_erofs_extended_word(struct ff_erofs_write_opts *w, const char *word);

#endif
