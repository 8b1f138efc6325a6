/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Allocator settings for the programs that read images and build them. */
#ifndef FF_COMMON_MALLOC_TUNE_H
#define FF_COMMON_MALLOC_TUNE_H

/* Called once by a program's main, before any thread starts: a process-wide
 * setting, so never from library code. */
void ff_malloc_tune_for_blocks(void);
/* The same rules as above; for a builder holding per-node arrays of many
 * megabytes, made and freed phase by phase (malloc_tune.c). */
void ff_malloc_tune_for_trees(void);

#endif
