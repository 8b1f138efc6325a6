/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The checksums the formats share, each from a well-kept library: never
 * written here (see docs/ARCHITECTURE.md).  zlib's crc32 is called where it
 * is used; crc32c, which zlib lacks, comes from e2fsprogs' libext2fs (ext4
 * checksums its metadata with it), chosen over ISA-L because Debian ships
 * libext2fs as a static library too, so libflashfs still links statically. */
#ifndef FF_COMMON_CRC_H
#define FF_COMMON_CRC_H

#include <stddef.h>
#include <stdint.h>

/* crc32c (Castagnoli) as the kernel's crc32c(seed, p, len): the register
 * starts at seed and is returned without a final inversion. */
uint32_t ff_crc32c(uint32_t seed, const void *p, size_t len);

#endif
