/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The fragment table, loaded whole at open.  Its size is bounded by the
 * image: each 512 entries need one 8-byte index slot inside it. */
#include <errno.h>
#include <stdlib.h>

#include "squashfs/fs_reader.h"

int sqfs_fragments_load(struct sqfs_rd *rd, uint64_t *first_block, struct ff_err *err)
{
	uint64_t n = rd->sb.fragment_count, i, len = n * SQFS_FRAGMENT_ENTRY_SIZE;
	uint8_t *raw;

	if (n == 0)
		return 0;
	if ((len + SQFS_META_SIZE - 1) / SQFS_META_SIZE * 10 > rd->size)
		return ff_err_set(err, EIO, "superblock: %llu fragments cannot fit an image of %llu bytes",
				  (unsigned long long)n, (unsigned long long)rd->size);
	raw = malloc(len);
	rd->frags = malloc(n * sizeof(*rd->frags));
	if (!raw || !rd->frags) {
		free(raw);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	if (sqfs_table_load(rd, "fragment", rd->sb.fragment_table, len, raw, first_block, err) < 0)
		goto fail;
	for (i = 0; i < n; i++) {
		struct sqfs_fragment_entry *f = &rd->frags[i];

		if (sqfs_fragment_entry_decode(raw + i * SQFS_FRAGMENT_ENTRY_SIZE, rd->sb.order, f,
					       rd->sb.block_size, err) < 0) {
			ff_err_prefix(err, "fragment %llu", (unsigned long long)i);
			goto fail;
		}
		if (f->start > rd->size ||
		    (f->size & SQFS_BLOCK_SIZE_MASK) > rd->size - f->start) {
			ff_err_set(err, EIO, "fragment %llu: block at %llu (%u bytes) past end of image (size %llu)",
				   (unsigned long long)i, (unsigned long long)f->start,
				   f->size & SQFS_BLOCK_SIZE_MASK, (unsigned long long)rd->size);
			goto fail;
		}
	}
	free(raw);
	return 0;
fail:
	free(raw);
	return -1;
}
