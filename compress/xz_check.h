/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Internal: where a .xz stream keeps its blocks' integrity check, so that
 * xz.c can verify a CRC32 check itself (see xz_check.c for why). */
#ifndef FF_COMPRESS_XZ_CHECK_H
#define FF_COMPRESS_XZ_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Non-zero when the stream header of src (n bytes) names a CRC32 check. */
int ff_xz_has_crc32(const uint8_t *src, size_t n);

/* For a stream of n bytes that liblzma has decoded whole (its header,
 * index and footer are then known to be sound): 1 with the stored CRC32 of
 * its one block in *crc, 0 when it has no block, -1 when it has several
 * (each has its own check, which this does not find). */
int ff_xz_stored_crc32(const uint8_t *src, size_t n, uint32_t *crc);

#endif
