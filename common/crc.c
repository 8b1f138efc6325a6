/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/crc.h"

#include <ext2fs/ext2fs.h>

uint32_t ff_crc32c(uint32_t seed, const void *p, size_t len)
{
	return ext2fs_crc32c_le(seed, p, len);
}
