/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/bytes.h"
#include "common/nand_ecc.h"
#include "tree/data_stream.h"
#include "yaffs2/ecc.h"
#include "yaffs2/end_record.h"
#include "yaffs2/obj_header.h"
#include "yaffs2/tags.h"
#include "yaffs2/xattr.h"

#define READ_CHUNKS 256 /* chunks of file data per read-ahead piece */
#define WRITE_BYTES (1u << 20) /* erase blocks are handed to the sink in ~1 MiB */

struct writer {
	const struct ff_tree *tree;
	const struct ff_y2_write_opts *o;
	const struct ff_y2_layout *lay;
	struct ff_y2_write_stats *st;
	uint8_t *blocks;      /* n_blocks erase blocks of raw pages */
	uint8_t *block;       /* the one being filled */
	uint32_t n_blocks, filled;
	uint32_t page;        /* next free page in block */
	uint32_t seq;
	uint8_t *chunk;       /* one chunk of data (header + xattrs) */
	struct ff_data_stream *data;
	struct ff_y2_end_record rec; /* in the root's headers, see end_record.h */
};

uint64_t ff_y2_max_file_size(uint32_t chunk_bytes)
{
	return (uint64_t)FF_Y2_MAX_CHUNK_ID * chunk_bytes;
}

static size_t block_len(const struct ff_y2_layout *lay)
{
	return (size_t)lay->geom.pages_per_block * lay->raw_page;
}

static int write_out(struct writer *w, struct ff_err *err)
{
	size_t len = w->filled * block_len(w->lay);

	if (len && w->o->sink(w->o->sink_ctx, w->blocks, len, err))
		return -1;
	w->st->bytes += len;
	w->filled = 0;
	w->block = w->blocks;
	return 0;
}

/* Close the current block (erased pages after the last used one). */
static int flush_block(struct writer *w, struct ff_err *err)
{
	size_t used = (size_t)w->page * w->lay->raw_page, len = block_len(w->lay);

	memset(w->block + used, 0xff, len - used);
	w->st->blocks++;
	w->page = 0;
	w->seq++;
	w->block += len;
	if (++w->filled == w->n_blocks)
		return write_out(w, err);
	return 0;
}

static void put_data_ecc(const struct ff_y2_layout *lay, uint8_t *raw)
{
	uint8_t *oob = raw + lay->geom.page_size;
	uint32_t steps = lay->geom.page_size / 256, r = 0, pos = 0;

	for (uint32_t s = 0; s < steps; s++) {
		uint8_t code[3];

		ff_nand_hamming256(raw + s * 256, code);
		for (int i = 0; i < 3 && r < lay->n_ecc_regions; i++) {
			oob[lay->ecc_regions[r].offset + pos] = code[i];
			if (++pos == lay->ecc_regions[r].len) {
				r++;
				pos = 0;
			}
		}
	}
}

/* Place one chunk (data[len], the rest erased) with its tags. */
static int emit_chunk(struct writer *w, struct ff_y2_tags *t, const uint8_t *data, size_t len,
		      struct ff_err *err)
{
	const struct ff_y2_layout *lay = w->lay;
	uint8_t *raw = w->block + (size_t)w->page * lay->raw_page;
	uint8_t tagbuf[FF_Y2_TAGS_SIZE_ECC];

	memcpy(raw, data, len);
	memset(raw + len, 0xff, lay->raw_page - len);
	t->seq = w->seq;
	ff_y2_tags_pack(t, tagbuf, w->o->big_endian, lay->tags_size == FF_Y2_TAGS_SIZE_ECC);
	ff_y2_page_put_tags(lay, raw, tagbuf);
	if (w->o->data_ecc && lay->kind != FF_Y2_LAYOUT_INBAND)
		put_data_ecc(lay, raw);
	if (++w->page == lay->geom.pages_per_block)
		return flush_block(w, err);
	return 0;
}

static int is_lost_found(const struct ff_node *n)
{
	return n->parent && !n->parent->parent && S_ISDIR(n->mode) && !ff_node_link(n) &&
	       n->name_len == 10 && !memcmp(ff_node_name(n), "lost+found", 10);
}

static uint32_t obj_id(const struct ff_node *n)
{
	if (!n->parent)
		return FF_Y2_OBJID_ROOT;
	if (is_lost_found(n))
		return FF_Y2_OBJID_LOSTNFOUND;
	return FF_Y2_OBJID_FIRST - 2 + n->index; /* the root is index 1 */
}

static int node_err(const struct ff_node *n, struct ff_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int node_err(const struct ff_node *n, struct ff_err *err, const char *fmt, ...)
{
	char path[4096], msg[FF_ERR_MSG_MAX];
	va_list ap;

	if (ff_node_path(n, path, sizeof(path)) < 0)
		snprintf(path, sizeof(path), "%.*s", (int)n->name_len, ff_node_name(n));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ff_err_set(err, EINVAL, "/%s: %s", path, msg);
}

static int fill_header(const struct ff_node *n, struct ff_y2_obj_header *oh, struct ff_err *err)
{
	const struct ff_node *p = ff_node_primary(n);

	memset(oh, 0, sizeof(*oh));
	oh->type = ff_node_link(n) ? FF_Y2_TYPE_HARDLINK : ff_y2_type_for_mode(p->mode);
	oh->parent_id = n->parent ? obj_id(n->parent) : FF_Y2_OBJID_ROOT;
	/* a node's name is at most FF_NAME_MAX bytes (its length is 8-bit) */
	_Static_assert(FF_NAME_MAX <= FF_Y2_NAME_MAX, "a tree name may not fit a YAFFS2 header");
	memcpy(oh->name, ff_node_name(n), n->name_len);
	oh->mode = p->mode;
	oh->uid = p->uid;
	oh->gid = p->gid;
	oh->atime = oh->mtime = oh->ctime = p->mtime;
	if (ff_node_link(n)) {
		oh->equiv_id = obj_id(ff_node_link(n));
		return 0;
	}
	if (S_ISREG(p->mode))
		oh->file_size = p->size;
	if (S_ISLNK(p->mode)) {
		size_t len = strlen(p->target);

		if (len > FF_Y2_ALIAS_MAX)
			return node_err(n, err, "symlink target is %zu bytes, YAFFS2 allows %u", len,
					FF_Y2_ALIAS_MAX);
		memcpy(oh->alias, p->target, len);
	}
	if ((S_ISCHR(p->mode) || S_ISBLK(p->mode)) &&
	    ff_y2_rdev_encode(p->rdev_major, p->rdev_minor, &oh->rdev))
		return node_err(n, err,
				"device %u:%u does not fit YAFFS2's 8-bit major and minor",
				p->rdev_major, p->rdev_minor);
	return 0;
}

static int put_xattrs(struct writer *w, const struct ff_node *n, struct ff_err *err)
{
	const struct ff_xattr *xa = ff_node_xattrs(n);
	uint32_t nx = ff_node_n_xattrs(n);
	size_t cap;
	struct ff_y2_xattr_in *x;
	int ret;

	if (!nx)
		return 0;
	/* The driver's xattr area is chunk bytes from sizeof(struct
	 * yaffs_obj_hdr) on (x_offs, x_size in yaffs_apply_xattrib_mod):
	 * empty, even negative, for chunks of 512 bytes or less. */
	if (w->lay->chunk_bytes <= FF_Y2_OBJ_HEADER_SIZE)
		return node_err(n, err,
				"%u extended attribute%s (%s...) do not fit: %u-byte chunks leave"
				" no room after the %u-byte object header (use --no-xattrs)",
				nx, nx == 1 ? "" : "s", xa[0].name,
				w->lay->chunk_bytes, FF_Y2_OBJ_HEADER_SIZE);
	cap = w->lay->chunk_bytes - FF_Y2_OBJ_HEADER_SIZE;
	x = calloc(nx, sizeof(*x));
	if (!x)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < nx; i++) {
		x[i].name = xa[i].name;
		x[i].value = xa[i].value;
		x[i].len = xa[i].len;
	}
	ret = ff_y2_xattr_encode(x, nx, w->chunk + FF_Y2_OBJ_HEADER_SIZE, cap,
				 w->o->big_endian, err);
	free(x);
	if (ret)
		return node_err(n, err, "%s", err->msg);
	return 0;
}

static void header_tags(const struct writer *w, const struct ff_node *n,
			const struct ff_y2_obj_header *oh, struct ff_y2_tags *t)
{
	memset(t, 0, sizeof(*t));
	t->obj_id = obj_id(n);
	if (w->o->classic_tags) {
		t->n_bytes = 0xffff;
		return;
	}
	/* The kernel's tags carry only 32 bits of file size; beyond that it
	 * must read the header itself, which it does when the extra info is
	 * absent. */
	if (oh->file_size > 0xffffffffu)
		return;
	t->has_extra = 1;
	t->extra_parent = oh->parent_id;
	t->extra_type = oh->type;
	if (oh->type == FF_Y2_TYPE_HARDLINK)
		t->extra_value = oh->equiv_id;
	else if (oh->type == FF_Y2_TYPE_FILE)
		t->extra_value = (uint32_t)oh->file_size;
}

static int check_file_size(const struct writer *w, const struct ff_node *n, uint64_t size,
			   struct ff_err *err)
{
	uint32_t cb = w->lay->chunk_bytes;

	if (size > 0xffffffffu && ff_y2_obj_header_len(cb) < FF_Y2_OBJ_HEADER_SIZE)
		return node_err(n, err,
				"file is %llu bytes: 4 GiB or more needs the object header's"
				" file_size_high, which %u-byte chunks (inband tags on %u-byte"
				" pages) do not hold; YAFFS2 addresses at most %llu bytes with them",
				(unsigned long long)size, cb, w->lay->geom.page_size,
				(unsigned long long)ff_y2_max_file_size(cb));
	if (size > ff_y2_max_file_size(cb))
		return node_err(n, err,
				"file is %llu bytes, more than the %llu YAFFS2 can address with"
				" %u-byte chunks (YAFFS_MAX_CHUNK_ID chunks)",
				(unsigned long long)size,
				(unsigned long long)ff_y2_max_file_size(cb), cb);
	return 0;
}

static int write_header(struct writer *w, const struct ff_node *n, struct ff_err *err)
{
	const struct ff_node *p = ff_node_primary(n);
	uint32_t hlen = ff_y2_obj_header_len(w->lay->chunk_bytes);
	struct ff_y2_obj_header oh;
	struct ff_y2_tags t;

	if (fill_header(n, &oh, err))
		return -1;
	if (!n->parent) {
		if (w->rec.is_end)
			w->rec.chunks = w->st->header_chunks + w->st->data_chunks + 1;
		w->rec.seq = w->seq;
		ff_y2_end_record_encode(&w->rec, oh.alias, sizeof(oh.alias));
	}
	if (S_ISREG(p->mode) && !ff_node_link(n) && check_file_size(w, n, p->size, err))
		return -1;
	memset(w->chunk, 0xff, w->lay->chunk_bytes);
	if (ff_y2_obj_header_encode_len(&oh, w->chunk, hlen, w->o->big_endian, err))
		return node_err(n, err, "%s", err->msg);
	if (!ff_node_link(n) && put_xattrs(w, n, err))
		return -1;
	header_tags(w, n, &oh, &t);
	w->st->header_chunks++;
	return emit_chunk(w, &t, w->chunk, w->lay->chunk_bytes, err);
}

static int write_span(struct writer *w, const struct ff_node *n, const uint8_t *buf,
		      size_t len, uint64_t off, struct ff_err *err)
{
	uint32_t cb = w->lay->chunk_bytes;

	for (size_t pos = 0; pos < len; pos += cb) {
		size_t take = len - pos < cb ? len - pos : cb;
		struct ff_y2_tags t;

		/* unyaffs reads a file's chunks in sequence, so classic images
		 * keep every chunk; the last is always kept, so that a reader
		 * can tell a file cut short (end_record.h). */
		if (!w->o->classic_tags && off + pos + take < n->size &&
		    ff_is_zero(buf + pos, take)) {
			w->st->hole_chunks++;
			continue;
		}
		memset(&t, 0, sizeof(t));
		t.obj_id = obj_id(n);
		t.chunk_id = (uint32_t)((off + pos) / cb + 1);
		t.n_bytes = (uint32_t)take;
		w->st->data_chunks++;
		if (emit_chunk(w, &t, buf + pos, take, err))
			return -1;
	}
	return 0;
}

static int has_data(const struct ff_node *n)
{
	return !ff_node_link(n) && S_ISREG(n->mode);
}

static int write_data(struct writer *w, const struct ff_node *n, struct ff_err *err)
{
	struct ff_data_piece p;

	for (uint64_t off = 0; off < n->size; off += p.len) {
		if (ff_data_stream_next(w->data, n, &p, err))
			return -1;
		if (write_span(w, n, p.buf, p.len, p.off, err))
			return -1;
	}
	return 0;
}

static int write_node(struct writer *w, const struct ff_node *n, struct ff_err *err)
{
	if (obj_id(n) > FF_Y2_OBJID_MAX)
		return node_err(n, err, "object id %u beyond YAFFS2's limit %u (too many objects)",
				obj_id(n), FF_Y2_OBJID_MAX);
	if (!n->parent && !w->o->root_header)
		return 0;
	if (write_header(w, n, err))
		return -1;
	w->st->objects++;
	if (has_data(n))
		return write_data(w, n, err);
	return 0;
}

/* The begin record's counts: objects from id 257 on, and the highest id. */
static void count_objects(struct writer *w)
{
	for (const struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		uint32_t id = obj_id(n);

		if (id < FF_Y2_OBJID_FIRST)
			continue;
		w->rec.objects++;
		if (id > w->rec.last_obj)
			w->rec.last_obj = id;
	}
	w->rec.present = 1;
}

/* The root's header again, newest of all, with the end record. */
static int write_end_record(struct writer *w, struct ff_err *err)
{
	if (!w->o->root_header)
		return 0;
	w->rec.is_end = 1;
	return write_header(w, ff_tree_root(w->tree), err);
}

/* Without extra header info in the tags the driver's scan takes a file's
 * size from the header (yaffs2_scan_chunk, yaffs_oh_to_size), and in a
 * truncated header the word it reads as file_size_high holds the tags'
 * sequence number: classic tags would give every file a size beyond 4 GiB. */
static int check_opts(const struct ff_y2_write_opts *o, struct ff_err *err)
{
	const struct ff_y2_layout *lay = &o->layout;

	if (o->data_ecc && lay->ecc != FF_Y2_ECC_HAMMING)
		return ff_err_set(err, EINVAL, "--data-ecc: only the software Hamming ECC is"
				  " computed, not %s", ff_y2_ecc_name(lay->ecc));
	if (o->classic_tags && ff_y2_obj_header_len(lay->chunk_bytes) < FF_Y2_OBJ_HEADER_SIZE)
		return ff_err_set(err, EINVAL,
				  "--tags classic with %u-byte chunks (inband tags on %u-byte"
				  " pages): the tags overwrite the header's file_size_high, which"
				  " the Linux driver reads when header tags carry no file size;"
				  " use --tags kernel", lay->chunk_bytes, lay->geom.page_size);
	return 0;
}

int ff_y2_write(const struct ff_tree *tree, const struct ff_y2_write_opts *opts,
		struct ff_y2_write_stats *stats, struct ff_err *err)
{
	const struct ff_y2_layout *lay = &opts->layout;
	struct writer w;
	uint64_t done = 0, total = ff_tree_count(tree);
	int ret = 0;

	memset(&w, 0, sizeof(w));
	w.tree = tree;
	w.o = opts;
	w.lay = lay;
	w.st = stats;
	w.seq = FF_Y2_SEQ_LOWEST;
	w.n_blocks = (uint32_t)(WRITE_BYTES / block_len(lay));
	if (!w.n_blocks)
		w.n_blocks = 1;

	memset(stats, 0, sizeof(*stats));
	if (check_opts(opts, err))
		return -1;
	w.blocks = w.block = malloc(w.n_blocks * block_len(lay));
	w.chunk = malloc(lay->chunk_bytes);
	if (!w.blocks || !w.chunk)
		ret = ff_err_set(err, ENOMEM, "out of memory for a %u-page block",
				 lay->geom.pages_per_block);
	if (!ret)
		w.data = ff_data_stream_new(tree, has_data, (size_t)lay->chunk_bytes * READ_CHUNKS,
					    err);
	if (!ret && !w.data)
		ret = -1;
	count_objects(&w);
	for (const struct ff_node *n = ff_tree_root(tree); n && !ret; n = ff_tree_next(tree, n)) {
		ret = write_node(&w, n, err);
		if (opts->progress && (++done % 1024 == 0 || done == total))
			opts->progress(opts->progress_ctx, done, total);
	}
	if (!ret)
		ret = write_end_record(&w, err);
	if (!ret && (w.page || !stats->blocks))
		ret = flush_block(&w, err);
	if (!ret)
		ret = write_out(&w, err);
	ff_data_stream_free(w.data);
	free(w.blocks);
	free(w.chunk);
	return ret;
}
