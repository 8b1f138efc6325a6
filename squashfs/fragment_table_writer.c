/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The fragment table: where each fragment block starts and its on-disk
 * size (with the uncompressed bit). */
#include "squashfs/fragment_writer.h"

#include <errno.h>
#include <stdlib.h>

#include "squashfs/table_writer.h"

int sqfs_fragment_table_write(const struct sqfs_frag_writer *f, struct sqfs_sink *s,
			      struct ff_comp_ctx *ctx, uint64_t *pos, struct ff_err *err)
{
	size_t len = (size_t)f->count * SQFS_FRAGMENT_ENTRY_SIZE;
	uint8_t *buf;
	int ret;

	/* With no fragments mksquashfs writes no table but still points the
	 * superblock at where it would start (the kernel reads nothing when
	 * the count is 0); so do we, for byte-identical images. */
	*pos = s->pos;
	if (!f->count)
		return 0;
	buf = malloc(len);
	if (!buf)
		return ff_err_set(err, ENOMEM, "fragment table: out of memory");
	for (uint32_t i = 0; i < f->count; i++)
		sqfs_fragment_entry_encode(FF_VEC_AT(&f->entries, struct sqfs_fragment_entry, i),
					   buf + (size_t)i * SQFS_FRAGMENT_ENTRY_SIZE);
	ret = sqfs_table_write(s, ctx, buf, len, NULL, 0, pos, err);
	free(buf);
	return ret;
}
