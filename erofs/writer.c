/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The EROFS writer's steps: plan the inodes, place them, write the data
 * area in pre-order (directories encoded once every nid is known; inline
 * tails go to their places in the meta area as they come), then the meta
 * area (superblock, inodes, shared xattrs) over the hole left at the
 * start, a run of blocks at a time (write_meta.c), and link the image
 * into place. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "erofs/compressor.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

void ff_erofs_write_opts_init(struct ff_erofs_write_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->blksize = 4096;
	o->xattr_tolerance = 2;
	o->level = -1;
}

static int check_opts(const struct ff_erofs_write_opts *o, struct ff_err *err)
{
	if (o->codec != FF_EROFS_NONE && o->pcluster > (1u << 20))
		return ff_err_set(err, EINVAL, "pcluster %u bytes: at most 1 MiB", o->pcluster);
	if (o->blksize < 512 || o->blksize > 65536 || (o->blksize & (o->blksize - 1)))
		return ff_err_set(err, EINVAL, "block size %u: must be a power of two 512..65536",
				  o->blksize);
	if (o->chunksize && (o->chunksize < o->blksize || (o->chunksize & (o->chunksize - 1))))
		return ff_err_set(err, EINVAL, "chunk size %u: must be a power of two, at least "
				  "the block size %u", o->chunksize, o->blksize);
	return 0;
}

static int write_data(struct ew *w, struct ff_err *err)
{
	if (ff_outfile_skip(&w->out, (uint64_t)w->data_start << w->blkbits, err) ||
	    ew_tails_init(w, err))
		return -1;
	if (ew_compress_all(w, err) || ew_write_late(w, err))
		return -1;
	for (uint32_t i = 0; i < w->n_inos; i++) {
		struct ew_ino *e = &w->inos[i];
		uint8_t *dir = NULL;
		int r = 0;

		if (e->layout == ER_CHUNK_BASED)
			r = ew_write_chunked(w, e, err);
		else if (S_ISDIR(e->n->mode))
			r = ew_dir_build(w, e, &dir, err) || ew_write_flat(w, e, dir, err);
		else if (S_ISLNK(e->n->mode))
			r = ew_write_flat(w, e, (const uint8_t *)e->n->target, err);
		else if (!e->compressed)
			r = ew_write_flat(w, e, NULL, err);
		free(dir);
		if (r)
			return -1;
	}
	return ew_tails_done(w, err);
}

/* The first meta region, over the hole left at the start: superblock,
 * inodes (and the late ones that filled room left there, ew_write_late),
 * shared xattrs. */
static int write_meta(struct ew *w, struct ff_err *err)
{
	return ew_meta_write(w, 0, (uint64_t)w->data_start << w->blkbits, err);
}

/* Early segments dropped (write_compress.c) may have left bytes past the
 * image's end: cut them off (a block device keeps them, past the image). */
static int cut_back(struct ew *w, struct ff_err *err)
{
	if (w->out_high <= w->out.size || w->out.dev_size)
		return 0;
	if (ftruncate(w->out.fd, (off_t)w->out.size) < 0)
		return ff_err_set(err, errno, "%s: cutting the image back to %llu bytes: %s",
				  w->out.path, (unsigned long long)w->out.size, strerror(errno));
	return 0;
}

static void ew_free(struct ew *w)
{
	for (uint32_t i = 0; w->inos && i < w->n_inos; i++) {
		struct ew_ino *e = &w->inos[i];

		free(e->xattr);
		free(e->zmeta);
		free(e->ztail);
	}
	ew_tails_done(w, NULL);
	free(w->inos);
	free(w->packed.zmeta);
	free(w->packed.ztail);
	ff_hmap_clear(&w->files_seen, NULL);
	ff_hmap_clear(&w->pcl_seen, NULL);
	ew_frag_close(w); /* opened by the plan (all-fragments) */
	ew_xattr_free(w);
}

/* Compression's sizes: the pcluster (-C, at least a block), the input one
 * extent may take (1 MiB, or 4 pclusters: LZMA's dictionary and zstd's
 * window; zeros compress a thousandfold), the algorithm bit and the config
 * record's room. */
static void compression_setup(struct ew *w)
{
	uint8_t scratch[ER_SUPER_OFFSET + ER_SUPER_SIZE + 64];
	uint32_t cap = 1u << 20;

	w->meta_end = ER_SUPER_OFFSET + ER_SUPER_SIZE;
	if (w->o->codec == FF_EROFS_NONE)
		return;
	w->pcluster = w->o->pcluster > w->blksz ? w->o->pcluster : w->blksz;
	while (cap < 4ull * w->pcluster)
		cap <<= 1;
	/* compact indexes hold distances below 2048 lclusters */
	if (ew_zmap_compact_ok(w) && cap > (2048u << w->blkbits))
		cap = 2048u << w->blkbits;
	w->ext_cap = cap;
	w->algs = (uint16_t)(1u << ew_codec_alg(w->o->codec));
	w->meta_end += ew_super_cfg(w, scratch);
}

static int run(struct ew *w, const char *path, struct ff_err *err)
{
	compression_setup(w);
	if (ew_plan(w, err) || ew_place_inodes(w, err) ||
	    ff_outfile_open(&w->out, path, err))
		return -1;
	if (write_data(w, err) || write_meta(w, err) || cut_back(w, err)) {
		ff_outfile_abort(&w->out);
		return -1;
	}
	w->st->bytes = w->out.size;
	return ff_outfile_commit(&w->out, err);
}

int ff_erofs_write(const struct ff_tree *tree, const struct ff_erofs_write_opts *o,
		   const char *path, struct ff_erofs_write_stats *st, struct ff_err *err)
{
	struct ew w;
	struct ff_erofs_write_stats dummy;
	int r;

	if (check_opts(o, err))
		return -1;
	memset(&w, 0, sizeof(w));
	w.o = o;
	w.tree = tree;
	w.blksz = o->blksize;
	while ((1u << w.blkbits) < w.blksz)
		w.blkbits++;
	w.st = st ? st : &dummy;
	memset(w.st, 0, sizeof(*w.st));
	r = run(&w, path, err);
	w.st->inodes = w.n_inos;
	w.st->shared_xattrs = w.n_shared;
	w.st->meta_bytes = w.meta_end;
	w.st->data_blocks = w.next_blk - w.data_start;
	ew_free(&w);
	return r;
}
