/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Compressed files, one pool job each (common/pool.h, ordered; a large
 * file one job per segment, see ew_file_seg_size): a worker
 * cuts its file into extents, each the longest run of input whose stream
 * fits in one pcluster, kept compressed only when that saves at least a
 * block, else one block stored as is; the stream sits at the end of its
 * pcluster (0-padding).  With ztailpacking the last extent goes behind
 * the inode instead when its stream (or, stored, its bytes) fits there
 * and is shorter than its input.  The main thread retires the files in pre-order,
 * gives each its first block and writes its pclusters, so the image does
 * not depend on the number of threads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/pool.h"
#include "erofs/compressor.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"
#include "erofs/write_zres.h"
#include "erofs/write_zspan.h"

#define PACKED_IDX UINT32_MAX      /* zjob.idx of the packed inode's segments */

struct zjob {
	uint32_t idx;              /* the file (w->inos), or PACKED_IDX */
	uint32_t seg;              /* which segment of it */
	uint8_t last;              /* its last segment: the file is placed */
	struct zspan sp;
	struct zres *res;
};

static void run_job(void *user, void *job, unsigned worker)
{
	struct zctx *z = user;
	struct zjob *j = job;
	const struct ew_ino *e = j->idx == PACKED_IDX ? &z->w->packed : &z->w->inos[j->idx];
	char path[4096];

	if (!ew_zspan_compress(z, worker, e, &j->sp, j->res, NULL, NULL, &j->res->err))
		return;
	j->res->failed = 1;
	if (j->idx == PACKED_IDX)
		ff_err_prefix(&j->res->err, "packed inode");
	else if (ff_node_path(e->n, path, sizeof(path)) >= 0)
		ff_err_prefix(&j->res->err, "%s", path);
}

/* A compressed file's bytes in place: its fragment (whole, or the last
 * extent's input), its pclusters, its inline tail, its map. */
/* e equals first, placed before it: the same extents, blocks and fragment. */
static int place_shared(struct ew *w, struct ew_ino *e, const struct ew_ino *first,
			struct zres *r, struct ff_err *err)
{
	e->frag = first->frag;
	e->fragoff = first->fragoff;
	e->blkaddr = first->blkaddr;
	e->nblocks = first->nblocks;
	if (r->tail && !r->frag) {
		e->ztail = r->tail;
		e->inline_len = (uint32_t)r->tail_len;
		e->slot += e->inline_len;
		r->tail = NULL;
	}
	w->st->compressed_files++;
	w->st->shared_files++;
	return ew_zmap_encode(w, e, r->x, r->n, err);
}

/* -E dedupe: a file whose bytes hit the table is compressed again here
 * with matches tried, taking full indexes if some extent is on an
 * earlier pcluster; else the worker's extents stay. */
static int dedupe_again(struct zctx *z, struct ew_ino *e, struct zres *r, struct ff_err *err)
{
	struct ew *w = z->w;
	struct zres *n;
	uint8_t layout = e->layout;
	uint32_t zlen = e->zmeta_len;
	size_t refs = 0;
	struct ff_vec dm = FF_VEC_INIT(struct ew_match);

	if (ew_dedupe_scan(w, r->whole, e->size, &dm, err))
		return -1;
	if (!dm.len)
		return 0;
	e->layout = ER_COMPRESSED_FULL;
	e->zmeta_len = ew_zmap_len(w, e);
	if (!(n = calloc(1, sizeof(*n)))) {
		ff_vec_free(&dm);
		return ff_err_set(err, ENOMEM, "dedupe: out of memory");
	}
	struct zspan sp = { 0, e->size, e->size, 0 };

	if (ew_zspan_compress(z, z->self, e, &sp, n, r->whole, &dm, err))
		refs = (size_t)-1;
	ff_vec_free(&dm);
	for (size_t k = 0; refs != (size_t)-1 && k < n->n; k++)
		refs += n->x[k].ref;
	if (refs && refs != (size_t)-1) {
		ew_res_swap(r, n);
		e->deduped = 1;
		w->deduped = 1;
		w->st->deduped_files++;
		e->slot = (uint32_t)ew_align((e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE)
					     + e->xattr_len, 8) + e->zmeta_len;
	} else {
		e->layout = layout;
		e->zmeta_len = zlen;
	}
	ew_res_free(n);
	return refs == (size_t)-1 ? -1 : 0;
}

/* Compression that gains nothing: its pclusters, inline tail and map
 * (counted as full indexes) take the file's size or more, and no
 * fragment; the file is then stored flat (its tail inline when it fits),
 * as mkfs.erofs falls back. */
static int no_gain(const struct ew *w, const struct ew_ino *e, const struct zres *r)
{
	uint64_t nlc = (e->size + w->blksz - 1) >> w->blkbits;

	return e != &w->packed && !r->frag &&
	       r->early + r->len + r->tail_len + ER_MAP_HEADER_SIZE + 8 +
	       nlc * ER_LCLUSTER_INDEX_SIZE >= e->size;
}

/* A file's early segments are not wanted after all (it is stored flat,
 * or shares an equal file's blocks): the output goes back to where they
 * began, and the end is cut back there when the image is done. */
static void drop_early(struct ew *w, struct zres *r)
{
	if (!r->early)
		return;
	if (w->out.size > w->out_high)
		w->out_high = w->out.size;
	w->out.size -= r->early;
	r->early = 0;
}

/* Stored flat (e->compressed stays: the flat pass skips it), written now. */
static int place_flat(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	ew_plan_flat(w, e);
	return ew_write_flat(w, e, NULL, err);
}

static int place_one(struct zctx *z, struct ew_ino *e, struct zres *r, struct ff_err *err)
{
	struct ew *w = z->w;
	const struct ew_ino *first;
	int s;

	if (e->frag == 2 || (r->frag && r->n == 1)) {
		/* the whole file in the packed inode (a first extent that is
		 * also the last is the whole file too) */
		e->frag = 2;
		if (w->o->all_fragments && !r->frag) {
			/* copied by the plan (ew_frag_plan) */
		} else if (r->frag ? ew_frag_append(w, e, r->tail, r->tail_len, err)
				   : ew_frag_copy(w, e, err)) {
			return -1;
		}
		e->nblocks = 0;
		w->st->compressed_files++;
		return ew_zmap_encode(w, e, NULL, 0, err);
	}
	/* (a file with a head of its own: the sum is of the head alone) */
	if (e != &w->packed && !e->fraghead &&
	    (s = ew_share_find(w, e, &r->sum, &first, err)) != 0) {
		/* a deduped first was cut unlike e's own extents: e is deduped too */
		if (s < 0)
			return -1;
		if (first->layout != ER_COMPRESSED_FULL && first->layout != ER_COMPRESSED_COMPACT) {
			drop_early(w, r);
			return place_flat(w, e, err);
		}
		if (!first->deduped) {
			drop_early(w, r);
			return place_shared(w, e, first, r, err);
		}
	}
	if (r->whole && dedupe_again(z, e, r, err))
		return -1;
	if (no_gain(w, e, r)) {
		drop_early(w, r);
		return place_flat(w, e, err);
	}
	if (r->frag) {
		e->frag = 1;
		if (!e->fraghead && ew_frag_append(w, e, r->tail, r->tail_len, err))
			return -1;
	} else {
		e->ztail = r->tail;
		e->inline_len = (uint32_t)r->tail_len;
		e->slot += e->inline_len;
		r->tail = NULL;
	}
	if (ew_pshare_match(w, e, r, err))
		return -1;
	e->blkaddr = w->next_blk;
	e->nblocks = (uint32_t)((r->early + r->len) >> w->blkbits);
	w->next_blk += e->nblocks;
	w->st->compressed_files++;
	return ff_outfile_write(&w->out, r->data, r->len, err) ||
	       ew_pshare_add(w, e, r, r->data, err) ||
	       ew_zmap_encode(w, e, r->x, r->n, err) ||
	       (r->whole && ew_dedupe_add(w, e, r->whole, r->x, r->n, r->tail != NULL, err))
	       ? -1 : 0;
}

/* A finished file, then its result freed.  After a failure (*ret set)
 * the rest are only freed. */
static void place(struct zctx *z, struct ew_ino *e, struct zres *r, int *ret,
		  struct ff_err *err)
{
	if (*ret) {
		/* the first failure's message stays */
	} else if (r->failed) {
		*err = r->err;
		*ret = -1;
	} else {
		*ret = place_one(z, e, r, err);
	}
	ew_res_free(r);
}

/* The submitter's side: the ring's input bytes in flight, the file whose
 * segments are coming in, the packed inode's, and its segments so far. */
struct zsub {
	struct ff_pool *pool;
	size_t queue;
	uint64_t inflight;
	struct zres *acc, *packed_acc;
	uint64_t packed_pos;       /* the packed inode's bytes submitted */
	uint32_t packed_seg;       /* and its segments */
	int ret;
};

/* A large file's segment but its last: its pclusters go out now, at the
 * output's end, where the file's first block will be (the pool retires
 * jobs in order and nothing else is written before the file is placed:
 * the packed inode's segments wait in their own accumulator), so that a
 * file's compressed bytes are not all held until its last segment is
 * in: 10 MB for minbase's 50 MB package list with LZMA.  Its extents and
 * sum stay for the map.  Kept in memory as before when the output is not
 * at the next block (it always is) or after a failure. */
static void write_early(struct ew *w, struct zsub *q, struct zjob *j, struct ff_err *err)
{
	struct zres *r = j->res;
	uint64_t at = (uint64_t)w->next_blk << w->blkbits;

	if (q->ret || r->failed || !r->len || (q->acc && q->acc->failed))
		return;
	if (w->out.size != at + (q->acc && j->seg ? q->acc->early : 0))
		return;
	if (j->seg && q->acc && q->acc->len)
		return; /* an earlier segment stayed in memory: so does this one */
	if (ff_outfile_write(&w->out, r->data, r->len, err)) {
		q->ret = -1;
		return;
	}
	r->early = r->len;
	r->len = 0;
	free(r->data);
	r->data = NULL;
	r->cap = 0;
}

/* A finished job: a file of one segment placed; a segment kept in the
 * accumulator until its file's last one is in. */
static void retire(struct zctx *z, struct zsub *q, struct zjob *j, struct ff_err *err)
{
	struct ew *w = z->w;
	int packed = j->idx == PACKED_IDX;
	struct zres **acc = packed ? &q->packed_acc : &q->acc;
	struct ew_ino *e = packed ? &w->packed : &w->inos[j->idx];

	q->inflight -= j->sp.end - j->sp.start;
	if (j->seg == 0 && j->last) {
		place(z, e, j->res, &q->ret, err);
		return;
	}
	if (!packed && !j->last)
		write_early(w, q, j, err);
	if (j->seg == 0)
		*acc = j->res;
	else
		ew_res_append(*acc, j->res);
	if (j->last) {
		place(z, e, *acc, &q->ret, err);
		*acc = NULL;
	}
}

/* The jobs in flight: up to QUEUE_JOBS records holding up to QUEUE_BYTES
 * of input.  Deep, because the oldest job (a large file) holds the ring
 * while the other workers go on with the files after it: a shallow ring
 * leaves them idle until it is done. */
#define QUEUE_JOBS 256u
#define QUEUE_BYTES (32u << 20)

/* Queues one job, retiring the oldest first while the ring is full. */
static void submit(struct zctx *z, struct zsub *q, uint32_t idx, uint32_t seg, int last,
		   const struct zspan *sp, struct ff_err *err)
{
	struct zjob j;

	while ((ff_pool_pending(q->pool) == q->queue || q->inflight > QUEUE_BYTES) &&
	       ff_pool_retire(q->pool, &j))
		retire(z, q, &j, err);
	if (q->ret)
		return;
	j.idx = idx;
	j.seg = seg;
	j.last = (uint8_t)last;
	j.sp = *sp;
	if (!(j.res = calloc(1, sizeof(*j.res)))) {
		q->ret = ff_err_set(err, ENOMEM, "compression: out of memory");
		return;
	}
	q->inflight += sp->end - sp->start;
	ff_pool_submit(q->pool, &j);
}

/* The packed inode's segments, cut as a file of its final size is (every
 * 16 MiB, the last taking the rest; ew_file_span): a segment is submitted
 * once the fragments have passed its end by a segment more, so it is not
 * the last (all = 0); once all are in (all = 1), the rest.  Each cut
 * leaves a short pcluster behind it: cut more often (the rest in 2 MiB
 * pieces, so the end ran on every worker), the packed inode took up to 6
 * blocks more than mkfs.erofs 1.9.3's, which cuts here too.  The cuts
 * depend on the fragments' bytes only. */
static void submit_packed(struct zctx *z, struct zsub *q, int all, struct ff_err *err)
{
	struct ew *w = z->w;
	uint64_t big = ew_file_seg_size(w), len = w->frag_len;

	while (!q->ret && q->packed_pos + 2 * big <= len) {
		struct zspan sp = { q->packed_pos, q->packed_pos + big, UINT64_MAX, 1 };

		submit(z, q, PACKED_IDX, q->packed_seg++, 0, &sp, err);
		q->packed_pos = sp.end;
	}
	if (all && !q->ret && q->packed_pos < len) {
		struct zspan sp = { q->packed_pos, len, len, 1 };

		submit(z, q, PACKED_IDX, q->packed_seg++, 1, &sp, err);
		q->packed_pos = len;
	}
}

static void retire_all(struct zctx *z, struct zsub *q, struct ff_err *err)
{
	struct zjob j;

	while (ff_pool_retire(q->pool, &j))
		retire(z, q, &j, err);
}

static int submit_all(struct zctx *z, struct zsub *q, struct ff_err *err)
{
	struct ew *w = z->w;
	struct zspan sp;

	for (uint32_t i = 0; i < w->n_inos && !q->ret; i++) {
		struct ew_ino *e = &w->inos[i];
		uint32_t k = e->compressed ? ew_nsegs(w, e) : 0;

		for (uint32_t seg = 0; seg < k && !q->ret; seg++) {
			sp = ew_file_span(w, e, seg);
			submit(z, q, i, seg, seg + 1 == k, &sp, err);
		}
		if (w->o->fragments)
			submit_packed(z, q, 0, err);
	}
	retire_all(z, q, err);
	if (!q->ret && w->frag_len) {
		/* every fragment is in: the packed inode's last segments */
		ew_frag_packed_setup(w);
		submit_packed(z, q, 1, err);
		retire_all(z, q, err);
		if (!q->ret)
			w->st->compressed_files--; /* not a file of the tree */
		w->st->fragment_bytes = w->frag_len;
	}
	if (q->acc || q->packed_acc) { /* after a failure: a last segment that never came */
		int failed = -1;

		if (q->acc)
			place(z, &w->packed, q->acc, &failed, err);
		if (q->packed_acc)
			place(z, &w->packed, q->packed_acc, &failed, err);
	}
	return q->ret;
}

int ew_compress_all(struct ew *w, struct ff_err *err)
{
	unsigned threads = w->o->threads ? w->o->threads : ff_online_cpus();
	struct zctx z = { 0 };
	struct ff_pool_cfg cfg = { threads, QUEUE_JOBS, sizeof(struct zjob), 1, run_job, &z };
	struct zsub q = { .queue = QUEUE_JOBS };
	int ret;

	if (w->o->codec == FF_EROFS_NONE)
		return 0;
	z.self = threads;
	ret = ew_zctx_init(&z, w, threads, err);
	if (!ret && w->o->dedupe)
		ret = ew_dedupe_init(w, err);
	if (!ret && !(q.pool = ff_pool_new(&cfg, err)))
		ret = -1;
	if (!ret)
		ret = ew_frag_open(w, err) || submit_all(&z, &q, err);
	ff_pool_free(q.pool);
	ew_frag_close(w);
	ew_dedupe_free(w);
	ew_zctx_free(&z, threads);
	return ret;
}
