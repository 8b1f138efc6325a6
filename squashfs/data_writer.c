/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File contents: every regular file is read once, in data order (--sort
 * priority, then tree order), cut into blocks for the block processor and
 * a tail for the fragment packer.  Files found identical by the dedup pass
 * are not read again; they share the first copy's blocks and fragment.
 * A file smaller than a block whose size another file has is read whole
 * first, checked against the earlier ones (sqfs_dedup_small) and, when
 * it is a first copy, packed from those bytes: one read for both. */
#include "squashfs/data_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"
#include "squashfs/append_writer.h"
#include "squashfs/format.h"

static int collect_files(struct sqfs_data_writer *w, struct ff_err *err)
{
	ff_vec_init(&w->sizes, sizeof(uint32_t *));
	if (sqfs_file_list_make(&w->list, w->tree, err) < 0)
		return -1;
	w->fdata = calloc((size_t)ff_tree_count(w->tree) + 1, sizeof(*w->fdata));
	if (!w->fdata)
		return ff_err_set(err, ENOMEM, "out of memory for %zu files", w->list.n);
	w->n_files = w->list.n;
	for (size_t i = 0; i < w->n_files; i++) {
		struct ff_node *n = sqfs_file(w, i);

		sqfs_fdata(w, n)->frag_index = SQFS_INVALID_FRAG;
		w->bytes_total += n->size;
	}
	return 0;
}

static int use_fragment(const struct sqfs_data_writer *w, uint64_t size)
{
	if (w->o->no_fragments || size % w->block_size == 0)
		return 0;
	return size < w->block_size || w->o->always_fragments;
}

static int retire(void *user, struct sqfs_block *b, struct ff_err *err)
{
	struct sqfs_data_writer *w = user;
	struct sqfs_file_data *fd = b->owner;

	if (w->o->block_cb)
		w->o->block_cb(w->o->cb_ctx, (enum ff_sqfs_block_kind)b->kind, b->in, b->in_len,
			       b->out_len, b->raw);
	w->st->data_out += b->out_len;
	w->st->n_raw_blocks += b->raw;
	if (b->kind == FF_SQFS_BLOCK_FRAGMENT)
		return sqfs_frag_retire(&w->frags, w->sink, b, err);
	if (b->idx == 0)
		sqfs_fd_set_blocks_start(&w->sizes, fd, w->sink->pos);
	if (b->kind == FF_SQFS_BLOCK_SPARSE) {
		sqfs_fd_sizes(&w->sizes, fd)[b->idx] = 0;
		w->st->n_sparse_blocks++;
		return 0;
	}
	sqfs_fd_sizes(&w->sizes, fd)[b->idx] =
		b->out_len | (b->raw ? SQFS_BLOCK_UNCOMPRESSED : 0);
	return sqfs_sink_write(w->sink, b->raw ? b->in : b->out, b->out_len, err);
}

/* The bytes come from d, or from mem (the whole file) when it is not NULL. */
static int submit_block(struct sqfs_data_writer *w, struct ff_data *d, const uint8_t *mem,
			struct sqfs_file_data *fd, uint32_t idx, uint64_t off, uint32_t len,
			struct ff_err *err)
{
	struct sqfs_block *b = sqfs_block_proc_get(w->bp, err);
	ssize_t got = len;

	if (!b)
		return -1;
	if (mem)
		memcpy(b->in, mem + off, len);
	else
		got = ff_data_pread(d, b->in, len, off, err);
	if (got < 0)
		return -1;
	if ((uint32_t)got != len)
		return ff_err_set(err, EIO, "short read at offset %llu (%zd of %u bytes)",
				  (unsigned long long)off, got, len);
	b->in_len = len;
	b->owner = fd;
	b->idx = idx;
	b->check_sparse = !w->o->no_sparse;
	b->store_raw = w->o->raw_data;
	sqfs_block_proc_submit(w->bp, b);
	w->st->n_blocks++;
	return 0;
}

/* The tail's bytes from d, or from mem (the whole file) when not NULL. */
static int add_tail(struct sqfs_data_writer *w, struct ff_data *d, const uint8_t *mem,
		    struct sqfs_file_data *fd, uint64_t off, uint32_t len, struct ff_err *err)
{
	uint8_t *tail = mem ? NULL : malloc(len);
	const uint8_t *bytes = mem ? mem + off : tail;
	ssize_t got = len;
	int ret;

	if (!mem && !tail)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (!mem)
		got = ff_data_pread(d, tail, len, off, err);
	if (got >= 0 && (uint32_t)got != len)
		got = ff_err_set(err, EIO, "short read of the last %u bytes", len);
	if (got >= 0 && !w->o->no_sparse && ff_is_zero(bytes, len)) {
		/* like mksquashfs: an all-zero tail is a sparse block, not a
		 * fragment (stream_bytes left room for one more size, or
		 * made no array when there was no block) */
		uint32_t idx = sqfs_fd_n_blocks(&w->sizes, fd);

		free(tail);
		if (!sqfs_fd_has_sizes(fd) && sqfs_fd_sizes_new(&w->sizes, fd, 1, 0, err) < 0)
			return -1;
		sqfs_fd_set_n_blocks(&w->sizes, fd, idx + 1);
		return submit_block(w, d, mem, fd, idx, off, len, err);
	}
	ret = got < 0 ? -1 : sqfs_frag_add(&w->frags, w->bp, bytes, len, &fd->frag_index,
						  sqfs_fd_frag_offset_at(&w->sizes, fd), err);
	free(tail);
	return ret;
}

/* Cuts a file into blocks and a tail, its bytes read through d or, when
 * mem is not NULL, already read (the whole file, smaller than a block). */
static int stream_bytes(struct sqfs_data_writer *w, struct ff_node *n, struct ff_data *d,
			const uint8_t *mem, struct sqfs_file_data *fd, struct ff_err *err)
{
	uint64_t size = n->size, off = 0;
	int frag = use_fragment(w, size);
	uint32_t tail = (uint32_t)(size % w->block_size);
	uint32_t n_blocks = (uint32_t)(size / w->block_size) + (tail && !frag);
	int ret = 0;

	/* Most small files have no block: no array (a million 4-byte
	 * allocations cost 32 MB).  add_tail makes one if it needs it; room
	 * for one more size when the tail may turn out all zero. */
	if (n_blocks && sqfs_fd_sizes_new(&w->sizes, fd,
					  (size_t)n_blocks + (frag && !w->o->no_sparse), n_blocks,
					  err) < 0)
		return -1;
	for (uint32_t i = 0; i < n_blocks && !ret; i++, off += w->block_size) {
		uint32_t len = size - off < w->block_size ? (uint32_t)(size - off) : w->block_size;

		ret = submit_block(w, d, mem, fd, i, off, len, err);
	}
	if (!ret && frag)
		ret = add_tail(w, d, mem, fd, off, tail, err);
	return ret;
}

static int stream_file(struct sqfs_data_writer *w, struct ff_node *n, struct sqfs_file_data *fd,
		       struct ff_err *err)
{
	struct ff_data *d = ff_tree_open_data(w->tree, n, err);
	int ret;

	if (!d)
		return -1;
	ret = stream_bytes(w, n, d, NULL, fd, err);
	ff_data_close(d);
	return ret;
}

/* Whether a file is the old image's, its blocks copied already. */
static int from_old_image(const struct sqfs_data_writer *w, const struct ff_node *n)
{
	return w->o->append && ff_node_image(w->tree, n) == w->o->append;
}

/* A dedup candidate below a block: read whole once, into w->small_buf,
 * then either a duplicate or written from those bytes. */
static int small_file(struct sqfs_data_writer *w, size_t i, struct ff_node *n,
		      struct ff_err *err)
{
	struct ff_data *d = ff_tree_open_data(w->tree, n, err);
	ssize_t got;
	int dup;

	if (!d)
		return -1;
	got = ff_data_pread(d, w->small_buf, n->size, 0, err);
	ff_data_close(d);
	if (got >= 0 && (uint64_t)got != n->size)
		got = ff_err_set(err, EIO, "short read (%zd of %llu bytes)", got,
				 (unsigned long long)n->size);
	if (got < 0)
		return -1;
	dup = sqfs_dedup_small(w, i, n, w->small_buf, err);
	if (dup)
		return dup;
	if (from_old_image(w, n))
		return sqfs_append_file(w->o->append, n, sqfs_fdata(w, n), &w->sizes, err);
	return stream_bytes(w, n, NULL, w->small_buf, sqfs_fdata(w, n), err);
}

static int write_file(struct sqfs_data_writer *w, size_t i, struct ff_node *n,
		      struct ff_err *err)
{
	if (sqfs_fd_dup_of(sqfs_fdata(w, n)) || !n->size)
		return 0;
	if (sqfs_dedup_small_wanted(w, n->size))
		return small_file(w, i, n, err) < 0 ? -1 : 0;
	if (from_old_image(w, n))
		return sqfs_append_file(w->o->append, n, sqfs_fdata(w, n), &w->sizes, err);
	return stream_file(w, n, sqfs_fdata(w, n), err);
}

static void report_progress(struct sqfs_data_writer *w, uint64_t files_done)
{
	if (w->o->progress)
		w->o->progress(w->o->cb_ctx, w->bytes_done, w->bytes_total, files_done,
			       w->n_files);
}

static int write_all(struct sqfs_data_writer *w, struct ff_err *err)
{
	char path[4096];

	for (size_t i = 0; i < w->n_files; i++) {
		struct ff_node *n = sqfs_file(w, i);

		if (write_file(w, i, n, err) < 0)
			return ff_err_prefix(err, "%s", sqfs_node_name(n, path, sizeof(path)));
		w->bytes_done += n->size;
		sqfs_readahead_progress(w->ra, w->bytes_done);
		report_progress(w, i + 1);
	}
	if (sqfs_frag_flush(&w->frags, w->bp, err) < 0)
		return -1;
	return sqfs_block_proc_drain(w->bp, err);
}

static void count_dups(struct sqfs_data_writer *w)
{
	for (size_t i = 0; i < w->n_files; i++) {
		struct ff_node *n = sqfs_file(w, i);

		if (sqfs_fd_dup_of(sqfs_fdata(w, n))) {
			w->st->n_dup_files++;
			w->st->dup_bytes += n->size;
		}
	}
}

static int write_data(struct sqfs_data_writer *w, struct ff_err *err)
{
	int ret;

	if (!w->o->no_dedup && sqfs_dedup(w, err) < 0)
		return -1;
	if (sqfs_dedup_small_init(w, err) < 0)
		return -1;
	if (w->small.seen && !(w->small_buf = malloc(w->block_size)))
		return ff_err_set(err, ENOMEM, "out of memory");
	if (sqfs_frag_init(&w->frags, w->block_size, w->o->raw_fragments, err) < 0 ||
	    (w->o->append && sqfs_append_frags(&w->frags, w->o->append, err) < 0))
		return -1;
	w->bp = sqfs_block_proc_new(w->o->comp, w->block_size, w->jobs, retire, w, err);
	if (!w->bp)
		return -1;
	ret = write_all(w, err);
	sqfs_block_proc_free(w->bp);
	w->bp = NULL;
	return ret;
}

int sqfs_data_write(struct sqfs_data_writer *w, struct ff_err *err)
{
	int ret;

	if (collect_files(w, err) < 0)
		return -1;
	w->st->n_files = w->n_files;
	w->st->data_in = w->bytes_total;
	w->ra = sqfs_readahead_start(&w->list);
	ret = write_data(w, err);
	sqfs_dedup_small_free(w);
	free(w->small_buf);
	w->small_buf = NULL;
	sqfs_readahead_stop(w->ra);
	w->ra = NULL;
	if (ret < 0)
		return -1;
	count_dups(w);
	w->st->n_fragment_blocks = w->frags.count;
	w->st->n_fragment_tails = w->frags.tails;
	/* the inodes find their records by node index: the list (--sort) is
	 * not held while the writer's per-node records are made */
	sqfs_file_list_free(&w->list);
	w->cur = (struct sqfs_file_cur){0};
	return 0;
}

void sqfs_files_free(struct sqfs_data_writer *w)
{
	sqfs_fd_table_free(&w->sizes);
	free(w->fdata);
	sqfs_file_list_free(&w->list);
	w->cur = (struct sqfs_file_cur){0};
	w->fdata = NULL;
}

void sqfs_data_free(struct sqfs_data_writer *w)
{
	sqfs_files_free(w);
	sqfs_frag_free(&w->frags);
}
