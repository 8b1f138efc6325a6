/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The facts `flashfs info` shows for a romfs image, in a stable order. */
#include <stdio.h>

#include "romfs/reader.h"

void rf_info(struct rf_fs *r, ff_info_fn fn, void *ctx)
{
	const struct rf_counts *n = &r->n;
	const struct { const char *key; uint64_t v; } counts[] = {
		{"headers", n->headers}, {"directories", n->dirs}, {"files", n->files},
		{"symlinks", n->symlinks}, {"hardlinks", n->hardlinks},
		{"block_devices", n->blkdevs}, {"char_devices", n->chrdevs},
		{"fifos", n->fifos}, {"sockets", n->sockets},
		{"bad_header_checksums", n->bad_header_sums},
		{"problems", r->problems.total},
	};
	char sum[32];

	snprintf(sum, sizeof(sum), "0x%08x (%s)", r->sb.checksum, r->sb.sum_ok ? "ok" : "bad");
	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "romfs", NULL);
	ff_info_str(fn, ctx, "volume_name", r->sb.volume);
	ff_info_uint(fn, ctx, "full_size", r->sb.full_size);
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_UINT, .key = "checksum",
					.num = r->sb.checksum, .text = sum });
	ff_info_bool(fn, ctx, "checksum_ok", r->sb.sum_ok);
	ff_info_uint(fn, ctx, "root_offset", r->sb.root);
	ff_info_str(fn, ctx, "endian", "big");
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		ff_info_uint(fn, ctx, counts[i].key, counts[i].v);
	ff_info_end(fn, ctx);
}
