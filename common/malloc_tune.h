/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Allocator settings for the programs that read images. */
#ifndef FF_COMMON_MALLOC_TUNE_H
#define FF_COMMON_MALLOC_TUNE_H

/* Called once by a program's main, before any thread starts: a process-wide
 * setting, so never from library code. */
void ff_malloc_tune_for_blocks(void);

#endif
