/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Page-cache hints ahead of the data pass's file reads (readahead_writer.c). */
#ifndef FF_SQUASHFS_READAHEAD_H
#define FF_SQUASHFS_READAHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "squashfs/file_list.h"

struct sqfs_readahead;
/* NULL when the helper cannot start: the writer then simply goes without.
 * The helper walks files with a cursor of its own. */
struct sqfs_readahead *sqfs_readahead_start(const struct sqfs_file_list *files);
/* The writer has consumed the first bytes_done bytes of files (data order). */
void sqfs_readahead_progress(struct sqfs_readahead *ra, uint64_t bytes_done);
void sqfs_readahead_stop(struct sqfs_readahead *ra);

#endif
