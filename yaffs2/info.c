/* The facts `flashfs info` shows for a YAFFS2 image, in a stable order. */
#include <stdio.h>

#include "yaffs2/scan.h"

static void num(ff_info_fn fn, void *ctx, const char *key, unsigned long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", v);
	fn(ctx, key, buf, 1);
}

static const char *header_style(const struct ff_y2_scan *s)
{
	if (s->st.kernel_headers && s->st.classic_headers)
		return "mixed";
	return s->st.kernel_headers ? "kernel" : "classic";
}

void ff_y2_info(const struct ff_y2_scan *s, ff_info_fn fn, void *ctx)
{
	const struct ff_y2_layout *l = &s->lay;
	char buf[32];

	fn(ctx, "format", "yaffs2", 0);
	num(fn, ctx, "page_size", l->geom.page_size);
	num(fn, ctx, "oob_size", l->kind == FF_Y2_LAYOUT_INBAND ? 0 : l->geom.oob_size);
	num(fn, ctx, "pages_per_block", l->geom.pages_per_block);
	num(fn, ctx, "chunk_bytes", l->chunk_bytes);
	fn(ctx, "oob_layout", ff_y2_layout_name(l->kind), 0);
	num(fn, ctx, "tags_bytes", l->tags_size);
	fn(ctx, "tags_ecc", l->tags_size == 28 ? "yes" : "no", 0);
	fn(ctx, "header_tags", header_style(s), 0);
	fn(ctx, "endian", s->big ? "big" : "little", 0);
	num(fn, ctx, "image_bytes", s->image_bytes);
	num(fn, ctx, "blocks", s->st.blocks);
	num(fn, ctx, "bad_blocks", s->st.bad_blocks);
	num(fn, ctx, "pages", s->st.pages);
	num(fn, ctx, "used_pages", s->st.used_pages);
	num(fn, ctx, "erased_pages", s->st.erased_pages);
	snprintf(buf, sizeof(buf), "0x%x", s->st.seq_min);
	fn(ctx, "seq_min", buf, 0);
	snprintf(buf, sizeof(buf), "0x%x", s->st.seq_max);
	fn(ctx, "seq_max", buf, 0);
	num(fn, ctx, "objects", s->st.objects);
	num(fn, ctx, "files", s->st.files);
	num(fn, ctx, "directories", s->st.dirs);
	num(fn, ctx, "symlinks", s->st.symlinks);
	num(fn, ctx, "hardlinks", s->st.hardlinks);
	num(fn, ctx, "specials", s->st.specials);
	num(fn, ctx, "deleted_objects", s->st.deleted);
	num(fn, ctx, "tags_ecc_fixed", s->st.ecc_fixed);
	num(fn, ctx, "tags_ecc_unfixed", s->st.ecc_unfixed);
	num(fn, ctx, "problems", s->total_problems);
}
