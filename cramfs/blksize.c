/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The block size is not stored: it is the page size of the kernel the
 * image was made for (mkfs.cramfs -b).  It shows in any file longer than
 * a block: its pointer table has one entry per block, so only the right
 * size puts block 0 where a zlib stream starts that inflates to exactly a
 * block.  A few files are tried; each rules sizes out. */
#include <stdlib.h>
#include <sys/stat.h>
#include <zlib.h>

#include "common/endian.h"
#include "cramfs/reader.h"

#define N_SIZES 8        /* 512 .. 65536 */
#define MAX_ENTRIES 4096 /* entries looked at */
#define MAX_FILES 64     /* files tried */

struct guess {
	struct cr_fs *c;
	unsigned alive;    /* bit k: 512 << k is still possible */
	unsigned entries, files;
	uint64_t dirs[64]; /* directories still to look into (a stack) */
	struct cr_inode dir_in[64];
	unsigned n_dirs;
	uint8_t *out;
};

/* 1 when block 0 of the file at `table` reads right with block size bs. */
static int fits(struct guess *g, const struct cr_inode *in, uint32_t bs)
{
	uint64_t n = (in->size - 1) / bs + 1, start = (uint64_t)in->offset + 4 * n;
	uint32_t want = in->size < bs ? in->size : bs;
	uint8_t b[4], *z;
	uLongf got = bs;
	uint32_t end;
	int ok;

	if (start > g->c->span || ff_bsrc_read(g->c->src, b, 4, in->offset, NULL))
		return 0;
	end = ff_get32(b, g->c->sb.big);
	if (end < start || end > g->c->span || end - start > 2 * bs)
		return 0;
	if (end == start) /* a hole tells nothing */
		return 1;
	z = malloc(end - start);
	if (!z || ff_bsrc_read(g->c->src, z, end - start, start, NULL)) {
		free(z);
		return 1;
	}
	ok = uncompress(g->out, &got, z, end - start) == Z_OK && got == want;
	free(z);
	return ok;
}

static void try_file(struct guess *g, const struct cr_inode *in)
{
	g->files++;
	for (unsigned k = 0; k < N_SIZES; k++) {
		uint32_t bs = CR_BLOCK_MIN << k;

		if ((g->alive >> k & 1) && in->size > CR_BLOCK_MIN && !fits(g, in, bs))
			g->alive &= ~(1u << k);
	}
}

static int visit(void *ctx, const struct cr_dirent *e)
{
	struct guess *g = ctx;

	if (++g->entries > MAX_ENTRIES || g->files >= MAX_FILES)
		return 1;
	if (S_ISREG(e->in.mode) && e->in.size > CR_BLOCK_MIN && e->in.offset)
		try_file(g, &e->in);
	else if (S_ISDIR(e->in.mode) && e->in.size && g->n_dirs < 64) {
		g->dirs[g->n_dirs] = e->handle;
		g->dir_in[g->n_dirs++] = e->in;
	}
	/* stop once one size is left */
	return g->alive && !(g->alive & (g->alive - 1));
}

static uint32_t choose(unsigned alive)
{
	if (!alive || (alive & (1u << 3))) /* 4096: the common page size */
		return alive == (1u << N_SIZES) - 1 ? 0 : 4096;
	for (unsigned k = 0; k < N_SIZES; k++)
		if (alive >> k & 1)
			return CR_BLOCK_MIN << k;
	return 4096;
}

uint32_t cr_detect_blksize(struct cr_fs *c)
{
	struct guess g = { .c = c, .alive = (1u << N_SIZES) - 1 };

	g.out = malloc(CR_BLOCK_MAX);
	if (!g.out)
		return 0;
	g.dirs[0] = cr_root_handle(c);
	g.dir_in[0] = c->sb.root;
	g.n_dirs = 1;
	while (g.n_dirs && g.entries <= MAX_ENTRIES && g.files < MAX_FILES &&
	       (g.alive & (g.alive - 1))) {
		uint64_t h = g.dirs[--g.n_dirs];
		struct cr_inode in = g.dir_in[g.n_dirs]; /* the walk may push over it */

		(void)cr_dir_walk(c, h, &in, 0, visit, &g, NULL);
	}
	free(g.out);
	return choose(g.alive);
}
