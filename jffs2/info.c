/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The facts `flashfs info` shows for a JFFS2 image, in a stable order. */
#include <stdio.h>

#include "jffs2/decomp.h"
#include "jffs2/node.h"
#include "jffs2/reader.h"

static void put_nodes(const struct j2_counts *c, ff_info_fn fn, void *ctx)
{
	const struct { const char *key; uint64_t v; } n[] = {
		{"inode", c->inode}, {"dirent", c->dirent}, {"xattr", c->xattr}, {"xref", c->xref},
		{"cleanmarker", c->cleanmarker}, {"padding", c->padding},
		{"summary", c->summary}, {"unknown", c->unknown}, {"obsolete", c->obsolete},
	};

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "nodes", NULL);
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		ff_info_uint(fn, ctx, n[i].key, n[i].v);
	ff_info_end(fn, ctx);
}

static void put_compressors(const struct j2_counts *c, ff_info_fn fn, void *ctx)
{
	static const char *names[J2_COMPR_COUNT + 1];
	char text[128];

	for (unsigned i = 0; i < J2_COMPR_COUNT; i++)
		names[i] = j2_compr_name(i);
	names[J2_COMPR_COUNT] = NULL;
	ff_info_names_text(c->compr_mask, names, text, sizeof(text));
	ff_info_names(fn, ctx, "compressors", c->compr_mask & ((1u << J2_COMPR_COUNT) - 1),
		      names, text[0] ? text : "none stored");
}

static void put_tree(const struct j2_tree *t, ff_info_fn fn, void *ctx)
{
	const struct { const char *key; uint64_t v; } n[] = {
		{"inodes", t->n - t->unreachable - t->deleted}, {"files", t->files}, {"directories", t->dirs},
		{"symlinks", t->symlinks}, {"devices", t->devices}, {"fifos", t->fifos},
		{"sockets", t->sockets}, {"hardlinks", t->hardlinks},
		{"deleted_inodes", t->deleted}, {"unreachable_inodes", t->unreachable}, {"xattrs", t->xattr_names},
	};

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		ff_info_uint(fn, ctx, n[i].key, n[i].v);
}

void j2_info(struct j2fs *j, ff_info_fn fn, void *ctx)
{
	const struct j2_counts *c = &j->s.c;
	char hex[32];

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "jffs2", NULL);
	ff_info_str(fn, ctx, "endian", j->s.geo.big ? "big" : "little");
	snprintf(hex, sizeof(hex), "%u KiB", j->s.geo.erase / 1024);
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_UINT, .key = "erase_size",
					.num = j->s.geo.erase, .text = hex });
	ff_info_str(fn, ctx, "erase_size_from", j2_erase_how_name(j->s.geo.how));
	ff_info_uint(fn, ctx, "image_bytes", j->s.size);
	ff_info_uint(fn, ctx, "erase_blocks", c->blocks);
	ff_info_uint(fn, ctx, "empty_blocks", c->empty_blocks);
	put_nodes(c, fn, ctx);
	ff_info_uint(fn, ctx, "bad_crc", c->bad_crc);
	ff_info_uint(fn, ctx, "bad_nodes", c->bad_other + c->straddling);
	ff_info_uint(fn, ctx, "garbage_bytes", c->garbage_bytes);
	ff_info_bool(fn, ctx, "summary_present", c->summary > 0);
	put_compressors(c, fn, ctx);
	put_tree(&j->t, fn, ctx);
	ff_info_uint(fn, ctx, "problems", j->s.prob.total);
	ff_info_end(fn, ctx);
}
