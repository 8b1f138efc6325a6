/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include <errno.h>

#include "squashfs/format.h"

uint16_t sqfs_meta_header_encode(uint32_t size, int uncompressed)
{
	return (uint16_t)(size | (uncompressed ? SQFS_META_UNCOMPRESSED : 0));
}

int sqfs_meta_header_decode(const uint8_t in[SQFS_META_HEADER_SIZE], enum sqfs_order o,
			    uint32_t *size, int *uncompressed, struct ff_err *err)
{
	uint16_t raw = sqfs_get16(in, o);

	*uncompressed = (raw & SQFS_META_UNCOMPRESSED) != 0;
	*size = raw & ~SQFS_META_UNCOMPRESSED;
	if (*size == 0 || *size > SQFS_META_SIZE)
		return ff_err_set(err, EINVAL, "metadata block: stored size %u not in 1..%u", *size,
				  SQFS_META_SIZE);
	return 0;
}
