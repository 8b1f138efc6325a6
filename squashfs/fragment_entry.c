/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include <errno.h>

#include "common/endian.h"
#include "squashfs/format.h"

void sqfs_fragment_entry_encode(const struct sqfs_fragment_entry *f,
				uint8_t out[SQFS_FRAGMENT_ENTRY_SIZE])
{
	ff_put_le64(out, f->start);
	ff_put_le32(out + 8, f->size);
	ff_put_le32(out + 12, 0);
}

int sqfs_fragment_entry_decode(const uint8_t in[SQFS_FRAGMENT_ENTRY_SIZE], enum sqfs_order o,
			       struct sqfs_fragment_entry *f, uint32_t block_size,
			       struct ff_err *err)
{
	uint32_t stored;

	f->start = sqfs_get64(in, o);
	f->size = sqfs_get32(in + 8, o);
	stored = f->size & SQFS_BLOCK_SIZE_MASK;
	if (f->size & ~(SQFS_BLOCK_SIZE_MASK | SQFS_BLOCK_UNCOMPRESSED))
		return ff_err_set(err, EINVAL, "fragment entry: size field 0x%08x has unknown bits",
				  f->size);
	if (stored == 0 || stored > block_size)
		return ff_err_set(err, EINVAL, "fragment entry: stored size %u not in 1..%u", stored,
				  block_size);
	return 0;
}
