/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ff_sqfs_write: lays out one image.
 *
 *   superblock | compressor options | data + fragment blocks | inode table |
 *   directory table | fragment table | export table | id table | xattrs
 *
 * in the order the kernel's super.c checks (each table's blocks directly
 * before its location list, the xattr id list ending exactly at
 * bytes_used), then padded to 4 KiB.  The superblock is written last, at
 * offset 0, once every position is known. */
#include "squashfs/writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/endian.h"
#include "common/hmap.h"
#include "common/pool.h"
#include "squashfs/append_writer.h"
#include "squashfs/data_writer.h"
#include "squashfs/dir_table_writer.h"
#include "squashfs/export_table_writer.h"
#include "squashfs/fragment_writer.h"
#include "squashfs/id_table_writer.h"
#include "squashfs/inode_table_writer.h"
#include "squashfs/node_info.h"
#include "squashfs/sink.h"
#include "squashfs/xattr_table_writer.h"

/* One image being built: the table objects, each with its own header, and
 * the order they are made and laid out in. */
struct sqfs_writer {
	const struct ff_tree *tree;
	const struct ff_sqfs_write_opts *o;
	struct ff_sqfs_write_stats *st;
	struct sqfs_sink sink;
	struct ff_comp_ctx *mctx;       /* metadata compression */
	uint32_t block_size;
	unsigned jobs;
	struct sqfs_node_info *info;    /* by ff_node.index */
	uint32_t *xattr;                /* xattr ids by ff_node.index; NULL
					   until a node has a set (most trees
					   have none: 4 bytes a node less) */
	uint32_t inode_count;
	struct sqfs_id_table ids;
	struct sqfs_xattr_writer *xattrs;
	struct sqfs_dir_writer dirs;
	struct sqfs_inode_writer inodes;
	struct sqfs_data_writer data;   /* file data, fragments, file records */
};

/* The metadata compression context, or NULL when `raw` (stored as is). */
static struct ff_comp_ctx *meta_ctx(const struct sqfs_writer *w, int raw)
{
	return raw ? NULL : w->mctx;
}

static int check_opts(const struct ff_sqfs_write_opts *o, struct ff_err *err)
{
	uint32_t bs = o->block_size;

	if (!o->comp)
		return ff_err_set(err, EINVAL, "no compressor given");
	if (bs < SQFS_BLOCK_MIN || bs > SQFS_BLOCK_MAX || (bs & (bs - 1)))
		return ff_err_set(err, EINVAL,
				  "block size %u is not a power of two in 4096..1048576", bs);
	return 0;
}

static unsigned pick_jobs(unsigned jobs)
{
	return jobs ? jobs : ff_online_cpus();
}

static uint16_t block_log(uint32_t bs)
{
	uint16_t l = 0;

	while ((1u << l) < bs)
		l++;
	return l;
}

/* The compressor-options block, when the options are not the defaults. */
static int write_comp_opts(struct sqfs_writer *w, struct sqfs_super *sb, struct ff_err *err)
{
	uint8_t buf[SQFS_META_HEADER_SIZE + 64];
	ssize_t n = ff_comp_options_encode(w->o->comp, buf + 2, sizeof(buf) - 2);

	if (n < 0)
		return ff_err_set(err, EINVAL, "%s: compressor options do not fit",
				  ff_comp_name(w->o->comp));
	if (n == 0)
		return 0;
	ff_put_le16(buf, sqfs_meta_header_encode((uint32_t)n, 1));
	sb->flags |= SQFS_FLAG_COMPRESSOR_OPTIONS;
	return sqfs_sink_write(&w->sink, buf, (size_t)n + 2, err);
}

static uint16_t super_flags(const struct ff_sqfs_write_opts *o)
{
	uint16_t f = 0;

	f |= o->no_fragments ? SQFS_FLAG_NO_FRAGMENTS : 0;
	f |= o->always_fragments && !o->no_fragments ? SQFS_FLAG_ALWAYS_FRAGMENTS : 0;
	f |= o->no_dedup ? 0 : SQFS_FLAG_DUPLICATES;
	f |= o->no_exports ? 0 : SQFS_FLAG_EXPORTABLE;
	f |= o->no_xattrs ? SQFS_FLAG_NO_XATTRS : 0;
	f |= o->raw_inodes ? SQFS_FLAG_UNCOMPRESSED_INODES : 0;
	/* mksquashfs: -noI implies uncompressed ids without their own flag. */
	f |= o->raw_ids && !o->raw_inodes ? SQFS_FLAG_UNCOMPRESSED_IDS : 0;
	f |= o->raw_data ? SQFS_FLAG_UNCOMPRESSED_DATA : 0;
	f |= o->raw_fragments ? SQFS_FLAG_UNCOMPRESSED_FRAGMENTS : 0;
	f |= o->raw_xattrs ? SQFS_FLAG_UNCOMPRESSED_XATTRS : 0;
	return f;
}

/* n's xattr id, in w->xattr, made (every id invalid) at the first node
 * that has one. */
static int keep_xattr_id(struct sqfs_writer *w, const struct ff_node *n, struct ff_err *err)
{
	size_t count = (size_t)ff_tree_count(w->tree) + 1;
	uint32_t id;

	if (sqfs_xattr_writer_add(w->xattrs, n, &id, err) < 0)
		return -1;
	if (id == SQFS_INVALID_XATTR)
		return 0;
	if (!w->xattr) {
		w->xattr = malloc(count * sizeof(*w->xattr));
		if (!w->xattr)
			return ff_err_set(err, ENOMEM, "out of memory for %zu xattr ids", count);
		for (size_t i = 0; i < count; i++)
			w->xattr[i] = SQFS_INVALID_XATTR;
	}
	w->xattr[n->index] = id;
	return 0;
}

/* Everything the tree can refuse is checked before any data is read: the
 * ids, the xattr sets, then the inode numbers. */
static int collect(struct sqfs_writer *w, struct ff_err *err)
{
	const struct ff_sqfs_write_opts *o = w->o;

	sqfs_id_table_init(&w->ids);
	w->xattrs = sqfs_xattr_writer_new(meta_ctx(w, o->raw_xattrs), o->warn, o->cb_ctx, err);
	if (!w->xattrs)
		return -1;
	for (struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		if (ff_node_link(n))
			continue;
		if (sqfs_id_table_add(&w->ids, n, n->uid, err) < 0 ||
		    sqfs_id_table_add(&w->ids, n, n->gid, err) < 0)
			return -1;
	}
	w->st->n_ids = sqfs_id_table_count(&w->ids);
	for (struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		if (ff_node_link(n))
			continue;
		if (keep_xattr_id(w, n, err) < 0)
			return -1;
	}
	w->st->n_xattr_ids = sqfs_xattr_writer_count(w->xattrs);
	w->inode_count = sqfs_inodes_number(w->tree);
	w->st->inode_count = w->inode_count;
	return 0;
}

static int write_tables(struct sqfs_writer *w, struct sqfs_super *sb, struct ff_err *err)
{
	const struct ff_sqfs_write_opts *o = w->o;
	uint64_t start;

	/* streamed since the data ended: mostly written already */
	if (sqfs_inode_writer_emit(&w->inodes, &w->sink, &sb->inode_table, err) < 0)
		return -1;
	w->st->inode_table_bytes = w->sink.pos - sb->inode_table;
	start = w->sink.pos;
	if (sqfs_dir_writer_emit(&w->dirs, &w->sink, &sb->dir_table, err) < 0)
		return -1;
	w->st->dir_table_bytes = w->sink.pos - start;
	start = w->sink.pos;
	if (sqfs_fragment_table_write(&w->data.frags, &w->sink, meta_ctx(w, o->raw_fragments),
				      &sb->fragment_table, err) < 0)
		return -1;
	w->st->fragment_table_bytes = w->sink.pos - start;
	sb->export_table = SQFS_INVALID_BLK;
	start = w->sink.pos;
	if (!o->no_exports &&
	    sqfs_export_table_write(&w->sink, meta_ctx(w, o->raw_inodes), w->tree, w->info,
				    w->inode_count, &sb->export_table, err) < 0)
		return -1;
	w->st->export_table_bytes = w->sink.pos - start;
	start = w->sink.pos;
	if (sqfs_id_table_write(&w->ids, &w->sink, meta_ctx(w, o->raw_inodes || o->raw_ids),
				&sb->id_table, err) < 0)
		return -1;
	w->st->id_table_bytes = w->sink.pos - start;
	start = w->sink.pos;
	if (sqfs_xattr_writer_write(w->xattrs, &w->sink, &sb->xattr_id_table, err) < 0)
		return -1;
	w->st->xattr_table_bytes = w->sink.pos - start;
	return 0;
}

static int finish(struct sqfs_writer *w, struct sqfs_super *sb, struct ff_err *err)
{
	uint8_t raw[SQFS_SUPER_SIZE];
	int64_t t = w->o->mkfs_time >= 0 ? w->o->mkfs_time : (int64_t)time(NULL);

	if (write_tables(w, sb, err) < 0)
		return -1;
	sb->inode_count = w->inode_count;
	sb->mod_time = t > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)t;
	sb->block_size = w->block_size;
	sb->block_log = block_log(w->block_size);
	sb->fragment_count = w->data.frags.count;
	sb->compressor = (uint16_t)ff_comp_id(w->o->comp);
	sb->id_count = (uint16_t)sqfs_id_table_count(&w->ids);
	sb->root_inode = sqfs_ni_ref(&w->info[ff_tree_root(w->tree)->index]);
	sb->bytes_used = w->sink.pos;
	sqfs_super_encode(sb, raw);
	w->st->bytes_used = sb->bytes_used;
	if (w->sink.of) {
		/* Like mksquashfs, the file end (offset included) is padded. */
		if ((!w->o->no_pad && ff_outfile_pad(w->sink.of, SQFS_PAD, err) < 0) ||
		    ff_outfile_pwrite(w->sink.of, raw, sizeof(raw), w->o->offset, err) < 0)
			return -1;
		w->sink.pos = w->sink.of->size;
	} else if (!w->o->no_pad) {
		uint64_t end = w->o->offset + w->sink.pos;

		w->sink.pos = (end + SQFS_PAD - 1) / SQFS_PAD * SQFS_PAD - w->o->offset;
	}
	w->st->image_size = w->sink.pos;
	return 0;
}

static int build(struct sqfs_writer *w, struct ff_err *err)
{
	static const uint8_t zero_super[SQFS_SUPER_SIZE];
	struct sqfs_super sb = { .flags = super_flags(w->o) };

	w->mctx = ff_comp_ctx_new(w->o->comp, err);
	if (!w->mctx)
		return -1;
	if (sqfs_sink_write(&w->sink, zero_super, sizeof(zero_super), err) < 0 ||
	    (w->o->append ? sqfs_append_copy(&w->sink, w->o->append, &sb, err)
			  : write_comp_opts(w, &sb, err)) < 0 ||
	    sqfs_data_write(&w->data, err) < 0)
		return -1;
	/* The per-node records only now, after the data pass: its marks (or
	 * --sort's file list) and small-file dedup set are freed, so the two
	 * are never held at once (issue 33).  Nothing in the data depends on
	 * inode numbers, ids or xattrs. */
	w->info = calloc((size_t)ff_tree_count(w->tree) + 1, sizeof(*w->info));
	if (!w->info)
		return ff_err_set(err, ENOMEM, "out of memory for %u nodes", ff_tree_count(w->tree));
	sqfs_dir_writer_init(&w->dirs, meta_ctx(w, w->o->raw_inodes), w->info);
	/* The directory table waits for the inode table, which is written
	 * as it is made: in a scratch file, not in memory (issue 33). */
	if (w->sink.of)
		sqfs_meta_spool(&w->dirs.meta);
	if (collect(w, err) < 0)
		return -1;
	sqfs_inode_writer_init(&w->inodes, meta_ctx(w, w->o->raw_inodes), w->tree, w->info,
			       &w->ids, &w->dirs, w->block_size, w->inode_count);
	w->inodes.xattr = w->xattr;
	if (sqfs_inode_writer_write(&w->inodes, &w->sink, w->data.fdata, &w->data.sizes, err) < 0)
		return -1;
	w->st->n_dirs = w->inodes.n_dirs;
	w->st->n_symlinks = w->inodes.n_symlinks;
	w->st->n_special = w->inodes.n_special;
	w->st->n_hardlinks = w->inodes.n_hardlinks;
	sqfs_files_free(&w->data);
	return finish(w, &sb, err);
}

static void release(struct sqfs_writer *w)
{
	if (w->inode_count) /* numbered: the nodes' priv held the numbers */
		sqfs_inodes_clear(w->tree);
	sqfs_data_free(&w->data);
	sqfs_xattr_writer_free(w->xattrs);
	sqfs_id_table_free(&w->ids);
	sqfs_inode_writer_free(&w->inodes);
	sqfs_dir_writer_free(&w->dirs);
	free(w->info);
	free(w->xattr);
	ff_comp_ctx_free(w->mctx);
}

int ff_sqfs_write(const struct ff_tree *tree, const struct ff_sqfs_write_opts *opts,
		  const char *image_path, struct ff_sqfs_write_stats *stats, struct ff_err *err)
{
	struct ff_sqfs_write_stats local;
	struct sqfs_writer w = { .tree = tree, .o = opts, .st = stats ? stats : &local };
	struct ff_outfile of;
	int ret;

	memset(w.st, 0, sizeof(*w.st));
	if (check_opts(opts, err) < 0)
		return -1;
	w.block_size = opts->block_size;
	w.jobs = pick_jobs(opts->jobs);
	w.data = (struct sqfs_data_writer){ .tree = tree, .o = opts, .st = w.st, .sink = &w.sink,
					    .block_size = w.block_size, .jobs = w.jobs };
	if (image_path) {
		if (ff_outfile_open(&of, image_path, err) < 0)
			return -1;
		w.sink.of = &of;
		if (opts->offset && ff_outfile_skip(&of, opts->offset, err) < 0) {
			ff_outfile_abort(&of);
			return -1;
		}
		if (opts->tmp_path_slot)
			*opts->tmp_path_slot = of.tmp_path;
	}
	ret = build(&w, err);
	if (image_path) {
		if (ret == 0 && opts->keep)
			ret = ff_outfile_detach(&of, opts->keep, err);
		else if (ret == 0)
			ret = ff_outfile_commit(&of, err);
		else
			ff_outfile_abort(&of);
		if (opts->tmp_path_slot)
			*opts->tmp_path_slot = NULL;
	}
	release(&w);
	return ret;
}
