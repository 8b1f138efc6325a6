/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs info` facts for a CramFS image: the superblock as stored, the
 * block size (detected, since no field holds it), the CRC's state, and
 * counts by type from a walk of the listings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hmap.h"
#include "cramfs/reader.h"

static const char *const flag_names[] = {
	"fsid-v2", "sorted-dirs", "bit2", "bit3", "bit4", "bit5", "bit6", "bit7",
	"holes", "wrong-signature", "shifted-root-offset", "ext-block-pointers", NULL,
};

struct counts {
	struct cr_fs *c;
	uint64_t by_type[16];
	uint64_t *dirs;           /* handles of directories to walk */
	struct cr_inode *dir_in;
	size_t n, cap;
	struct ff_hmap listings;
	int incomplete;
};

static int count_fn(void *ctx, const struct cr_dirent *e)
{
	struct counts *k = ctx;

	k->by_type[(e->in.mode & S_IFMT) >> 12]++;
	if (!S_ISDIR(e->in.mode) || !e->in.size || ff_hmap_get(&k->listings, e->in.offset))
		return 0;
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		uint64_t *d = realloc(k->dirs, cap * sizeof(*d));
		struct cr_inode *in = d ? realloc(k->dir_in, cap * sizeof(*in)) : NULL;

		if (d)
			k->dirs = d;
		if (!in)
			return k->incomplete = 1;
		k->dir_in = in;
		k->cap = cap;
	}
	if (ff_hmap_put(&k->listings, e->in.offset, (void *)1))
		return k->incomplete = 1;
	k->dirs[k->n] = e->handle;
	k->dir_in[k->n++] = e->in;
	return 0;
}

static void count(struct counts *k)
{
	if (!k->c->sb.root.size)
		return;
	ff_hmap_put(&k->listings, k->c->sb.root.offset, (void *)1);
	if (cr_dir_walk(k->c, cr_root_handle(k->c), &k->c->sb.root, 0, count_fn, k, NULL))
		k->incomplete = 1;
	while (k->n && !k->incomplete) {
		uint64_t h = k->dirs[--k->n];
		struct cr_inode in = k->dir_in[k->n]; /* the walk may push over it */

		if (cr_dir_walk(k->c, h, &in, 0, count_fn, k, NULL))
			k->incomplete = 1;
	}
}

static void put_counts(struct cr_fs *c, ff_info_fn fn, void *ctx)
{
	struct counts k = { .c = c };

	count(&k);
	if (!k.incomplete) {
		ff_info_uint(fn, ctx, "directories", k.by_type[S_IFDIR >> 12] + 1);
		ff_info_uint(fn, ctx, "files", k.by_type[S_IFREG >> 12]);
		ff_info_uint(fn, ctx, "symlinks", k.by_type[S_IFLNK >> 12]);
		ff_info_uint(fn, ctx, "devices",
			     k.by_type[S_IFCHR >> 12] + k.by_type[S_IFBLK >> 12]);
		ff_info_uint(fn, ctx, "fifos", k.by_type[S_IFIFO >> 12]);
		ff_info_uint(fn, ctx, "sockets", k.by_type[S_IFSOCK >> 12]);
	}
	free(k.dirs);
	free(k.dir_in);
	ff_hmap_free(&k.listings, NULL);
}

static void put_crc(struct cr_fs *c, ff_info_fn fn, void *ctx)
{
	static const char *const states[] = { "unknown", "ok", "bad", "unreadable",
					      "none (version 1 image)" };
	enum cr_crc_state s = cr_crc_state(c);
	char hex[16];

	snprintf(hex, sizeof(hex), "0x%08x", c->sb.crc);
	if (s == CR_CRC_NONE)
		ff_info_null(fn, ctx, "crc", "none stored");
	else
		fn(ctx, &(struct ff_info_item){ .type = FF_INFO_UINT, .key = "crc",
						.num = c->sb.crc, .text = hex });
	ff_info_str(fn, ctx, "crc_state", states[s]);
}

/* Up to 16 bytes, to the first NUL; other bytes outside ASCII as \xNN. */
static void put_text(ff_info_fn fn, void *ctx, const char *key, const uint8_t *b)
{
	char out[16 * 4 + 1];
	size_t n = 0;

	for (size_t i = 0; i < 16 && b[i]; i++) {
		if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\')
			out[n++] = (char)b[i];
		else
			n += (size_t)snprintf(out + n, sizeof(out) - n, "\\x%02x", b[i]);
	}
	out[n] = '\0';
	ff_info_str(fn, ctx, key, out);
}

void cr_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct cr_fs *c = (struct cr_fs *)fs;
	int v2 = !!(c->sb.flags & CR_FLAG_FSID_V2);
	char buf[256];

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "cramfs", NULL);
	ff_info_str(fn, ctx, "endian", c->sb.big ? "big" : "little");
	ff_info_uint(fn, ctx, "version", v2 ? 2 : 1);
	ff_info_uint(fn, ctx, "superblock_offset", c->sb.start);
	ff_info_uint(fn, ctx, "size", c->span);
	ff_info_uint(fn, ctx, "block_size", c->blksize);
	ff_info_str(fn, ctx, "block_size_from", c->blksize_from);
	ff_info_str(fn, ctx, "compressor", "zlib");
	put_text(fn, ctx, "name", c->sb.name);
	if (memcmp(c->sb.signature, CR_SIGNATURE, 16))
		put_text(fn, ctx, "signature", c->sb.signature);
	ff_info_uint(fn, ctx, "edition", c->sb.edition);
	if (v2) {
		ff_info_uint(fn, ctx, "blocks", c->sb.blocks);
		ff_info_uint(fn, ctx, "inodes", c->sb.files);
	}
	put_crc(c, fn, ctx);
	ff_info_names_text(c->sb.flags, flag_names, buf, sizeof(buf));
	ff_info_names(fn, ctx, "flags", c->sb.flags, flag_names, buf);
	ff_info_uint(fn, ctx, "root_offset", c->sb.root.offset);
	put_counts(c, fn, ctx);
	ff_info_end(fn, ctx);
}
