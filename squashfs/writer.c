/* ff_sqfs_write: lays out one image.
 *
 *   superblock | compressor options | data + fragment blocks | inode table |
 *   directory table | fragment table | export table | id table | xattrs
 *
 * in the order the kernel's super.c checks (each table's blocks directly
 * before its location list, the xattr id list ending exactly at
 * bytes_used), then padded to 4 KiB.  The superblock is written last, at
 * offset 0, once every position is known. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/endian.h"

void sqfs_warn(const struct sqfs_writer *w, enum ff_warn_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ff_vwarnf(w->o->warn, w->o->cb_ctx, kind, NULL, fmt, ap);
	va_end(ap);
}

const char *sqfs_node_name(const struct ff_node *n, char *buf, size_t cap)
{
	if (!n->parent) {
		snprintf(buf, cap, "/");
		return buf;
	}
	if (ff_node_path(n, buf, cap) < 0)
		snprintf(buf, cap, "%s", n->name);
	return buf;
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
	long n;

	if (jobs)
		return jobs;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
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

static int write_tables(struct sqfs_writer *w, struct sqfs_super *sb, struct ff_err *err)
{
	uint64_t start;

	/* streamed since the data ended: mostly written already */
	if (sqfs_meta_emit(&w->sink, &w->inodes, &sb->inode_table, err) < 0)
		return -1;
	w->st->inode_table_bytes = w->sink.pos - sb->inode_table;
	start = w->sink.pos;
	if (sqfs_meta_emit(&w->sink, &w->dirs, &sb->dir_table, err) < 0)
		return -1;
	w->st->dir_table_bytes = w->sink.pos - start;
	if (sqfs_fragment_table_write(w, &sb->fragment_table, err) < 0)
		return -1;
	sb->export_table = SQFS_INVALID_BLK;
	if (!w->o->no_exports && sqfs_export_write(w, &sb->export_table, err) < 0)
		return -1;
	if (sqfs_ids_write(w, &sb->id_table, err) < 0)
		return -1;
	return sqfs_xattrs_write(w, &sb->xattr_id_table, err);
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
	sb->fragment_count = w->frags.count;
	sb->compressor = (uint16_t)ff_comp_id(w->o->comp);
	sb->id_count = (uint16_t)w->ids.count;
	sb->root_inode = w->info[ff_tree_root(w->tree)->index].ref;
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
	w->info = calloc((size_t)ff_tree_count(w->tree) + 1, sizeof(*w->info));
	if (!w->mctx)
		return -1;
	if (!w->info)
		return ff_err_set(err, ENOMEM, "out of memory for %u nodes", ff_tree_count(w->tree));
	for (uint32_t i = 0; i <= ff_tree_count(w->tree); i++)
		w->info[i].xattr = SQFS_INVALID_XATTR;
	sqfs_meta_init(&w->inodes, sqfs_meta_ctx(w, w->o->raw_inodes));
	sqfs_meta_init(&w->dirs, sqfs_meta_ctx(w, w->o->raw_inodes));
	/* Everything that can refuse the tree runs before any data is read. */
	if (sqfs_ids_collect(w, err) < 0 || sqfs_xattrs_collect(w, err) < 0 ||
	    sqfs_inodes_number(w, err) < 0)
		return -1;
	if (sqfs_sink_write(&w->sink, zero_super, sizeof(zero_super), err) < 0 ||
	    (w->o->append ? sqfs_append_copy(w, &sb, err) : write_comp_opts(w, &sb, err)) < 0 ||
	    sqfs_data_write(w, err) < 0 ||
	    sqfs_inodes_write(w, err) < 0)
		return -1;
	sqfs_files_free(w);
	return finish(w, &sb, err);
}

static void release(struct sqfs_writer *w)
{
	sqfs_data_free(w);
	sqfs_xattrs_free(w);
	sqfs_ids_free(&w->ids);
	sqfs_meta_free(&w->inodes);
	sqfs_meta_free(&w->dirs);
	ff_hmap_clear(&w->linked_written, NULL);
	free(w->info);
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
