/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The facts `flashfs info` shows for a YAFFS2 image, in a stable order. */
#include <stdio.h>

#include "yaffs2/scan.h"

static const char *header_style(const struct ff_y2_scan *s)
{
	if (s->st.kernel_headers && s->st.classic_headers)
		return "mixed";
	return s->st.kernel_headers ? "kernel" : "classic";
}

static void put_seq(ff_info_fn fn, void *ctx, const char *key, uint32_t seq)
{
	char hex[16];

	snprintf(hex, sizeof(hex), "0x%x", seq);
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_UINT, .key = key, .num = seq,
					.text = hex });
}

static void put_geometry(const struct ff_y2_scan *s, ff_info_fn fn, void *ctx)
{
	const struct ff_y2_layout *l = &s->lay;

	ff_info_uint(fn, ctx, "page_size", l->geom.page_size);
	ff_info_uint(fn, ctx, "oob_size", l->kind == FF_Y2_LAYOUT_INBAND ? 0 : l->geom.oob_size);
	ff_info_uint(fn, ctx, "pages_per_block", l->geom.pages_per_block);
	ff_info_uint(fn, ctx, "chunk_bytes", l->chunk_bytes);
	ff_info_str(fn, ctx, "oob_layout", ff_y2_layout_name(l->kind));
	ff_info_uint(fn, ctx, "tags_bytes", l->tags_size);
	ff_info_bool(fn, ctx, "tags_ecc", l->tags_size == 28);
	ff_info_str(fn, ctx, "header_tags", header_style(s));
	ff_info_str(fn, ctx, "endian", s->big == FF_Y2_BIG_BOTH ? "big" : !s->big ? "little"
				       : ff_y2_hdr_big(s->big) ? "big (tags little-endian)"
							       : "little (tags big-endian)");
}

void ff_y2_info(const struct ff_y2_scan *s, ff_info_fn fn, void *ctx)
{
	const struct { const char *key; uint64_t v; } counts[] = {
		{"objects", s->st.objects}, {"files", s->st.files},
		{"directories", s->st.dirs}, {"symlinks", s->st.symlinks},
		{"hardlinks", s->st.hardlinks}, {"specials", s->st.specials},
		{"deleted_objects", s->st.deleted}, {"tags_ecc_fixed", s->st.ecc_fixed},
		{"tags_ecc_unfixed", s->st.ecc_unfixed}, {"problems", s->problems.total},
	};

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "yaffs2", NULL);
	put_geometry(s, fn, ctx);
	ff_info_uint(fn, ctx, "blocks", s->st.blocks);
	ff_info_uint(fn, ctx, "bad_blocks", s->st.bad_blocks);
	ff_info_uint(fn, ctx, "pages", s->st.pages);
	ff_info_uint(fn, ctx, "used_pages", s->st.used_pages);
	ff_info_uint(fn, ctx, "erased_pages", s->st.erased_pages);
	put_seq(fn, ctx, "seq_min", s->st.seq_min);
	put_seq(fn, ctx, "seq_max", s->st.seq_max);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		ff_info_uint(fn, ctx, counts[i].key, counts[i].v);
	ff_info_end(fn, ctx);
}
