/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/scan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/nand.h"
#include "common/problems.h"
#include "common/vec.h"
#include "yaffs2/tags.h"

#define READ_PAGES 256

/* One used page, as pass 1 found it. */
struct rec {
	uint32_t seq, page, obj_id, chunk_id, n_bytes;
	uint8_t header, shrink, shadows, kernel;
};

int ff_y2_read_page_data(const struct ff_y2_scan *s, uint32_t page, uint8_t *buf,
			 struct ff_err *err)
{
	uint64_t off = (uint64_t)page * s->lay.raw_page;

	if (ff_bsrc_read(s->src, buf, s->lay.chunk_bytes, off, err) < 0)
		return ff_err_prefix(err, "page %u", page);
	return 0;
}

/* The marker in the OOB of the block's first page (common/nand.h). */
static int block_is_bad(const struct ff_y2_scan *s, const uint8_t *raw)
{
	const struct ff_y2_layout *l = &s->lay;

	if (l->kind != FF_Y2_LAYOUT_LINUX || !l->geom.oob_size)
		return 0;
	return ff_nand_block_marked_bad(raw + l->geom.page_size, l->geom.oob_size,
					l->geom.page_size);
}

static int tags_to_rec(struct ff_y2_scan *s, uint32_t page, const uint8_t *raw, struct rec *r)
{
	uint8_t tb[FF_Y2_TAGS_SIZE_ECC];
	struct ff_y2_tags t;
	enum ff_y2_tags_result res;

	ff_y2_page_get_tags(&s->lay, raw, tb);
	res = ff_y2_tags_unpack(tb, ff_y2_tags_big(s->big), s->lay.tags_size == FF_Y2_TAGS_SIZE_ECC, &t);
	if (res == FF_Y2_TAGS_ERASED)
		return 0;
	if (res == FF_Y2_TAGS_FIXED)
		s->st.ecc_fixed++;
	if (res == FF_Y2_TAGS_UNFIXED) {
		s->st.ecc_unfixed++;
		ff_problem_add(&s->problems,
			       "page %u: tags ECC error, not correctable; chunk ignored", page);
		return 0;
	}
	if (t.seq < FF_Y2_SEQ_LOWEST || t.seq > FF_Y2_SEQ_HIGHEST || t.obj_id == 0 ||
	    t.obj_id > FF_Y2_OBJID_MAX) {
		ff_problem_add(&s->problems,
			       "page %u: implausible tags (sequence 0x%x, object %u); chunk ignored",
			       page, t.seq, t.obj_id);
		return 0;
	}
	memset(r, 0, sizeof(*r));
	r->seq = t.seq;
	r->page = page;
	r->obj_id = t.obj_id;
	r->chunk_id = t.chunk_id;
	r->n_bytes = t.n_bytes;
	r->header = t.chunk_id == 0;
	r->kernel = (uint8_t)t.has_extra;
	r->shrink = (uint8_t)t.extra_shrink;
	r->shadows = (uint8_t)t.extra_shadows;
	return 1;
}

static int pass1_pages(struct ff_y2_scan *s, uint8_t *buf, uint32_t first, uint32_t n,
		       struct ff_vec *recs)
{
	uint32_t ppb = s->lay.geom.pages_per_block;
	int bad = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t page = first + i;
		const uint8_t *raw = buf + (size_t)i * s->lay.raw_page;
		struct rec r;
		int k;

		if (page % ppb == 0) {
			bad = block_is_bad(s, raw);
			s->st.blocks++;
			s->st.bad_blocks += (uint64_t)bad;
		}
		if (bad)
			continue;
		k = tags_to_rec(s, page, raw, &r);
		if (k == 0) {
			s->st.erased_pages++;
			continue;
		}
		if (ff_vec_push(recs, &r))
			return -1;
	}
	return 0;
}

/* Pass 1: the tags of every page, read sequentially. */
static int pass1(struct ff_y2_scan *s, struct ff_vec *recs, struct ff_err *err)
{
	uint64_t pages = s->image_bytes / s->lay.raw_page;
	size_t bufsz = (size_t)READ_PAGES * s->lay.raw_page;
	uint8_t *buf = malloc(bufsz);
	int ret = 0;

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (pages > 0xffffffffull)
		pages = 0xffffffffull;
	s->st.pages = pages;
	if (s->image_bytes % s->lay.raw_page)
		ff_problem_add(&s->problems,
			       "image ends with %llu bytes of a partial page; ignored",
			       (unsigned long long)(s->image_bytes % s->lay.raw_page));
	for (uint64_t p = 0; p < pages && !ret; p += READ_PAGES) {
		uint32_t n = (uint32_t)(pages - p < READ_PAGES ? pages - p : READ_PAGES);
		size_t len = (size_t)n * s->lay.raw_page;
		if (ff_bsrc_read(s->src, buf, len, p * s->lay.raw_page, err) < 0)
			ret = ff_err_prefix(err, "page %llu", (unsigned long long)p);
		else if (pass1_pages(s, buf, (uint32_t)p, n, recs))
			ret = ff_err_set(err, ENOMEM, "out of memory");
	}
	free(buf);
	s->st.used_pages = recs->len;
	return ret;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->page < y->page ? -1 : x->page > y->page;
}

static struct ff_y2_obj *get_obj(struct ff_y2_scan *s, uint32_t id)
{
	struct ff_y2_obj *o = s->objs[id];

	if (o)
		return o;
	o = calloc(1, sizeof(*o));
	if (!o)
		return NULL;
	o->id = id;
	s->objs[id] = o;
	return o;
}

static void drop_chunks_from(struct ff_y2_obj *o, uint64_t size, uint32_t chunk_bytes)
{
	uint32_t keep = 0;

	for (uint32_t i = 0; i < o->n_chunks; i++)
		if ((uint64_t)(o->chunks[i].chunk_id - 1) * chunk_bytes < size)
			o->chunks[keep++] = o->chunks[i];
	o->n_chunks = keep;
}

static void forget_obj(struct ff_y2_obj *o)
{
	free(o->name);
	free(o->alias);
	free(o->chunks);
	free(o->children);
	memset(o, 0, sizeof(*o));
}

static int set_strings(struct ff_y2_obj *o, const struct ff_y2_obj_header *oh)
{
	char *name = strdup(oh->name);
	char *alias = oh->type == FF_Y2_TYPE_SYMLINK ? strdup(oh->alias) : NULL;

	if (!name || (oh->type == FF_Y2_TYPE_SYMLINK && !alias)) {
		free(name);
		free(alias);
		return -1;
	}
	free(o->name);
	free(o->alias);
	o->name = name;
	o->alias = alias;
	return 0;
}

static void shadow(struct ff_y2_scan *s, uint32_t victim, uint32_t by)
{
	if (victim && victim <= FF_Y2_OBJID_MAX && victim != by && s->objs[victim]) {
		uint32_t id = s->objs[victim]->id;

		forget_obj(s->objs[victim]);
		s->objs[victim]->id = id;
		s->objs[victim]->deleted = 1;
	}
}

/* A size beyond what the driver can address (FF_Y2_READ_MAX_CHUNK_ID chunks) is
 * damage; the data chunks then say how long the file is. */
static uint64_t header_size(struct ff_y2_scan *s, const struct rec *r, const struct ff_y2_obj *o,
			    uint64_t size)
{
	uint32_t cb = s->lay.chunk_bytes;
	uint64_t end = 0, max = (uint64_t)FF_Y2_READ_MAX_CHUNK_ID * cb;

	if (size <= max)
		return size;
	ff_problem_add(&s->problems,
		       "page %u: object %u: file size %llu is more than the %llu bytes"
		       " YAFFS2 addresses with %u-byte chunks; size taken from the data",
		       r->page, r->obj_id, (unsigned long long)size, (unsigned long long)max, cb);
	for (uint32_t i = 0; i < o->n_chunks; i++) {
		uint64_t e = (uint64_t)(o->chunks[i].chunk_id - 1) * cb + o->chunks[i].n_bytes;

		if (e > end)
			end = e;
	}
	return end;
}

static int apply_header(struct ff_y2_scan *s, const struct rec *r, uint8_t *buf,
			struct ff_err *err)
{
	struct ff_y2_obj_header oh;
	struct ff_err e2 = { 0, "" };
	struct ff_y2_obj *o;

	if (ff_y2_read_page_data(s, r->page, buf, err))
		return -1;
	if (ff_y2_obj_header_decode_len(buf, ff_y2_obj_header_len(s->lay.chunk_bytes),
					ff_y2_hdr_big(s->big),
					&oh, &e2)) {
		ff_problem_add(&s->problems, "page %u: object %u: %s; header ignored", r->page,
			       r->obj_id, e2.msg);
		return 0;
	}
	if (r->kernel)
		s->st.kernel_headers++;
	else
		s->st.classic_headers++;
	shadow(s, oh.shadows_obj, r->obj_id);
	o = get_obj(s, r->obj_id);
	if (!o || set_strings(o, &oh))
		return ff_err_set(err, ENOMEM, "out of memory");
	if (o->type && o->type != oh.type && oh.type != FF_Y2_TYPE_FILE)
		o->n_chunks = 0;
	o->type = oh.type;
	o->has_header = 1;
	o->deleted = 0;
	o->parent = oh.parent_id;
	o->mode = oh.mode;
	o->uid = oh.uid;
	o->gid = oh.gid;
	o->rdev = oh.rdev;
	o->equiv_id = oh.equiv_id;
	o->atime = oh.atime;
	o->mtime = oh.mtime;
	o->ctime = oh.ctime;
	o->hdr_page = r->page;
	o->size = oh.type == FF_Y2_TYPE_FILE ? header_size(s, r, o, oh.file_size) : 0;
	if (r->obj_id == FF_Y2_OBJID_ROOT && oh.type == FF_Y2_TYPE_DIRECTORY)
		ff_y2_end_record_decode(oh.alias, &s->rec);
	if (oh.type == FF_Y2_TYPE_FILE && (oh.is_shrink || r->shrink))
		drop_chunks_from(o, o->size, s->lay.chunk_bytes);
	return 0;
}

static int apply_data(struct ff_y2_scan *s, const struct rec *r, uint32_t order)
{
	uint32_t cb = s->lay.chunk_bytes;
	struct ff_y2_obj *o;
	uint64_t end;

	if (r->n_bytes > cb || r->chunk_id > FF_Y2_READ_MAX_CHUNK_ID) {
		ff_problem_add(&s->problems,
			       "page %u: object %u chunk %u: %u bytes in a %u-byte chunk; ignored",
			       r->page, r->obj_id, r->chunk_id, r->n_bytes, cb);
		return 0;
	}
	o = get_obj(s, r->obj_id);
	if (!o)
		return -1;
	if (o->n_chunks == o->cap_chunks) {
		uint32_t nc = o->cap_chunks ? o->cap_chunks * 2 : 4;
		struct ff_y2_chunk *nv = realloc(o->chunks, nc * sizeof(*nv));

		if (!nv)
			return -1;
		o->chunks = nv;
		o->cap_chunks = nc;
	}
	o->chunks[o->n_chunks++] = (struct ff_y2_chunk){ r->chunk_id, r->page, r->n_bytes, order };
	end = (uint64_t)(r->chunk_id - 1) * cb + r->n_bytes;
	if (end > o->size)
		o->size = end;
	return 0;
}

/* Pass 2: apply every used page in (sequence, position) order. */
static int pass2(struct ff_y2_scan *s, struct rec *v, size_t n, struct ff_err *err)
{
	uint8_t *buf = malloc(s->lay.chunk_bytes);
	int ret = 0;

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof(*v), rec_cmp);
	if (n) {
		s->st.seq_min = v[0].seq;
		s->st.seq_max = v[n - 1].seq;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		if (v[i].header)
			ret = apply_header(s, &v[i], buf, err);
		else if (apply_data(s, &v[i], (uint32_t)i))
			ret = ff_err_set(err, ENOMEM, "out of memory");
	}
	free(buf);
	return ret;
}

/* The sorted pages' sequence numbers, for ff_y2_check_complete. */
static int check_complete(struct ff_y2_scan *s, const struct rec *v, size_t n,
			  struct ff_err *err)
{
	uint32_t *seqs;

	if (!s->rec.present)
		return 0;
	seqs = malloc((n ? n : 1) * sizeof(*seqs));
	if (!seqs)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		seqs[i] = v[i].seq;
	ff_y2_check_complete(s, seqs, n);
	free(seqs);
	return 0;
}

int ff_y2_scan_run(struct ff_y2_scan *s, struct ff_err *err)
{
	struct ff_vec recs = FF_VEC_INIT(struct rec); /* one per used page */
	int ret;

	ff_problem_list_init(&s->problems, FF_Y2_MAX_PROBLEMS);
	s->objs = calloc(FF_Y2_OBJID_MAX + 1, sizeof(*s->objs));
	if (!s->objs)
		return ff_err_set(err, ENOMEM, "out of memory");
	ret = pass1(s, &recs, err);
	if (!ret)
		ret = pass2(s, recs.data, recs.len, err);
	if (!ret)
		ret = ff_y2_tree_build(s, err);
	if (!ret)
		ret = check_complete(s, recs.data, recs.len, err);
	ff_vec_free(&recs);
	return ret;
}

void ff_y2_scan_free(struct ff_y2_scan *s)
{
	if (s->objs) {
		for (uint32_t i = 0; i <= FF_Y2_OBJID_MAX; i++) {
			if (s->objs[i])
				forget_obj(s->objs[i]);
			free(s->objs[i]);
		}
	}
	free(s->objs);
	ff_problem_list_free(&s->problems);
	s->objs = NULL;
}

const struct ff_y2_chunk *ff_y2_obj_chunk(const struct ff_y2_obj *o, uint32_t chunk_id)
{
	uint32_t lo = 0, hi = o->n_chunks;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (o->chunks[mid].chunk_id < chunk_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < o->n_chunks && o->chunks[lo].chunk_id == chunk_id ? &o->chunks[lo] : NULL;
}

