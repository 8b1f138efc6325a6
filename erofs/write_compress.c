/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Compressed files, one pool job each (common/pool.h, ordered; a large
 * file one job per segment, see seg_size): a worker
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

/* The input of one job: [start, end) of a file of size bytes (the packed
 * inode's segments before the last: size unknown, UINT64_MAX). */
struct zspan {
	uint64_t start, end, size;
	int packed;                /* the packed inode's bytes (fragments) */
};

#define PACKED_IDX UINT32_MAX      /* zjob.idx of the packed inode's segments */

struct zjob {
	uint32_t idx;              /* the file (w->inos), or PACKED_IDX */
	uint32_t seg;              /* which segment of it */
	uint8_t last;              /* its last segment: the file is placed */
	struct zspan sp;
	struct zres *res;
};

struct zctx {
	struct ew *w;
	struct ew_codec **codecs;  /* one per worker, and the submitter's */
	uint8_t **outs;            /* one pcluster of scratch per worker */
	/* Per worker too, made once: an input window (ext_cap) and the tail
	 * trim's two pclusters.  Made per file they were an mmap and munmap
	 * each (glibc above its threshold, ASan always: 340 CPU s of CI's
	 * ASan pass in the erofs_build tests, 90 plain). */
	uint8_t **wins;
	uint8_t **tmps;
	unsigned self;             /* the submitter's codec and scratch */
};

/* The input window: [*bstart, *bstart + *blen) of the file in buf. */
struct window {
	struct ff_data *d;         /* the file, or NULL: */
	FILE *f;                   /* the fragments (the packed inode) */
	uint8_t *buf;
	uint64_t bstart;
	size_t blen;
	uint64_t end;              /* the segment's end: no extent crosses it */
	struct ew_fsum *sum;       /* of the bytes read, in order */
	uint64_t lim;              /* -E dedupe: an extent takes no input from
				      here on (a match starts there) */
};

static int window_fill(struct window *win, const struct ew_ino *e, uint64_t pos, size_t want,
		       struct ff_err *err)
{
	size_t keep = (size_t)(win->bstart + win->blen - pos);
	ssize_t got;

	if (pos + want <= win->bstart + win->blen)
		return 0;
	memmove(win->buf, win->buf + (pos - win->bstart), keep);
	win->bstart = pos;
	win->blen = keep;
	if (win->d)
		got = ff_data_pread(win->d, win->buf + keep, want - keep, pos + keep, err);
	else if ((got = pread(fileno(win->f), win->buf + keep, want - keep,
			      (off_t)(pos + keep))) < 0)
		return ff_err_set(err, errno, "fragments: read at %llu: %s",
				  (unsigned long long)(pos + keep), strerror(errno));
	if (got < 0)
		return -1;
	if ((size_t)got != want - keep)
		return ff_err_set(err, EIO, "file shrank while read (%zu bytes at %llu)",
				  (size_t)got, (unsigned long long)(pos + keep));
	if (win->sum)
		ew_fsum_add(win->sum, win->buf + keep, want - keep);
	win->blen = want;
	(void)e;
	return 0;
}

/* ztailpacking: the file's last extent (n bytes of input at in, its
 * stream of *got bytes in out) does not fit behind the inode.  Taken a
 * pcluster one block shorter, it leaves a rest that may: then *n and *got
 * become that shorter extent's (1), and the rest is the next extent,
 * inline (a block less, as mkfs.erofs 1.9 cuts it).  Else 0, nothing
 * changed.  Not tried when the stream's last block holds more than the
 * room: the rest, shorter, compresses no better than that. */
static int trim_for_tail(struct zctx *z, unsigned worker, const uint8_t *in, size_t *n,
			 long *got, uint32_t room)
{
	struct ew *w = z->w;
	uint32_t cblks = (uint32_t)((*got + w->blksz - 1) >> w->blkbits);
	size_t cut = (size_t)(cblks - 1) << w->blkbits, n2 = *n, rest, m;
	long got2, got3 = 0;
	uint8_t *tmp = z->tmps[worker]; /* 2 pclusters: *got is at most one */
	int ok;

	if (cblks < 2 || !room || (size_t)*got - cut > room)
		return 0;
	memcpy(tmp + w->pcluster, z->outs[worker], (size_t)*got);
	got2 = ew_codec_fit(z->codecs[worker], in, &n2, z->outs[worker], cut);
	rest = *n - n2;
	if (got2 > 0 && n2 < *n && cut < n2 && !(rest <= room && rest <= w->blksz)) {
		m = rest;
		got3 = ew_codec_fit(z->codecs[worker], in + n2, &m, tmp, w->pcluster);
		if (got3 <= 0 || m != rest || (size_t)got3 >= rest || (uint32_t)got3 > room)
			got2 = 0;
	}
	ok = got2 > 0 && n2 < *n && cut < n2;
	if (ok) {
		*n = n2;
		*got = got2;
	} else { /* the stream as it was */
		memcpy(z->outs[worker], tmp + w->pcluster, (size_t)*got);
	}
	return ok;
}

/* One extent at pos: compressed when that saves a block, else a block as is. */
static int one_extent(struct zctx *z, unsigned worker, struct window *win, uint64_t pos,
		      uint64_t size, struct zres *r, uint64_t *used, uint32_t room,
		      uint64_t *skip_to, struct ff_err *err)
{
	struct ew *w = z->w;
	size_t n = win->lim - pos < w->ext_cap ? (size_t)(win->lim - pos) : w->ext_cap;
	const uint8_t *in = win->buf + (pos - win->bstart);
	int frag = w->o->fragments && win->d; /* not the packed inode itself */
	int last = win->end == size; /* the file's tail is in this segment */
	long got = 0;
	uint32_t cblks;

	*used = size - pos;
	if (last && frag && win->lim == size && size - pos <= w->blksz)
		return ew_res_frag_tail(r, pos, in, (size_t)(size - pos), err);

	/* Input that just failed to save a block is stored as is for the
	 * span that failed but its last block, without asking the codec
	 * again for each of its blocks (noise would cost a pcluster's
	 * compression per block). */
	if (pos >= *skip_to)
		got = ew_codec_fit(z->codecs[worker], in, &n, z->outs[worker], w->pcluster);
	cblks = got > 0 ? (uint32_t)((got + w->blksz - 1) >> w->blkbits) : 0;

	if (got < 0)
		return ff_err_set(err, EIO, "compression failed at byte %llu",
				  (unsigned long long)pos);
	if (frag && got > 0 && pos + n == size)
		return ew_res_frag_tail(r, pos, in, n, err);
	if (got > 0 && pos + n == size && (size_t)got < n && (uint32_t)got <= room)
		return ew_res_inline_tail(r, pos, z->outs[worker], (size_t)got, 0, err);
	if (last && size - pos <= room && size - pos <= w->blksz)
		return ew_res_inline_tail(r, pos, in, (size_t)(size - pos), 1, err);
	if (got > 0 && pos + n == size && trim_for_tail(z, worker, in, &n, &got, room))
		cblks = (uint32_t)((got + w->blksz - 1) >> w->blkbits);
	if (got > 0 && ((uint64_t)cblks << w->blkbits) < n) {
		size_t span = (size_t)cblks << w->blkbits;

		if (ew_res_grow(r, span) || ew_res_extent(r, pos, cblks, 0))
			return ff_err_set(err, ENOMEM, "compressed data: out of memory");
		memset(r->data + r->len, 0, span - (size_t)got);
		memcpy(r->data + r->len + span - (size_t)got, z->outs[worker], (size_t)got);
		r->len += span;
		r->x[r->n - 1].dlen = (uint32_t)n;
		*used = n;
		return 0;
	}
	if (pos >= *skip_to && n > 2 * (size_t)w->blksz)
		*skip_to = pos + n - w->blksz;
	n = win->lim - pos < w->blksz ? (size_t)(win->lim - pos) : w->blksz;
	/* The kernel takes an extent that no head follows to run to the end
	 * of its last lcluster, and refuses a plain one longer than its block:
	 * a file's last plain bytes stop at an lcluster boundary first. */
	if (pos + n == size && (pos & (w->blksz - 1)) + n > w->blksz)
		n = w->blksz - (size_t)(pos & (w->blksz - 1));
	if (ew_res_grow(r, w->blksz) || ew_res_extent(r, pos, 1, 1))
		return ff_err_set(err, ENOMEM, "compressed data: out of memory");
	memset(r->data + r->len, 0, w->blksz);
	memcpy(r->data + r->len, in, n);
	r->len += w->blksz;
	r->x[r->n - 1].dlen = (uint32_t)n;
	*used = n;
	return 0;
}

/* -E dedupe: files up to this size are kept whole for the table. */
#define DEDUPE_WHOLE_MAX (64u << 20)

/* The window over all of the file (-E dedupe): read at once and handed
 * to the result, or the bytes a worker read before (whole). */
static int window_whole(struct ew *w, struct window *win, const struct ew_ino *e,
			const uint8_t *whole, struct ff_err *err)
{
	if (whole) {
		win->buf = (uint8_t *)whole;
		win->blen = (size_t)e->size;
		return 0;
	}
	if (!(win->buf = malloc(e->size > w->ext_cap ? (size_t)e->size : w->ext_cap)))
		return ff_err_set(err, ENOMEM, "file of %llu bytes: out of memory",
				  (unsigned long long)e->size);
	return window_fill(win, e, 0, (size_t)e->size, err);
}

/* -E dedupe, before the extent at *pos: the next match of dm (from
 * *mi on) becomes a reference extent when it starts there (1), or, ahead,
 * the end of the input the next extent may take (*lim).  A match is
 * dropped when the bytes before it cannot end an extent there: no
 * lcluster may hold two heads, so an extent (but the last) crosses an
 * lcluster boundary. */
static int dedupe_step(struct ew *w, const struct ff_vec *dm, size_t *mi, struct zres *r,
		       uint64_t *pos, uint64_t *lim, struct ff_err *err)
{
	const struct ew_match *m;

	for (; *mi < dm->len; ++*mi) {
		m = FF_VEC_AT(dm, struct ew_match, *mi);
		if (m->x.lstart < *pos)
			continue;
		if (m->x.lstart == *pos) {
			if (ew_res_extent(r, 0, 0, 0))
				return ff_err_set(err, ENOMEM, "extents: out of memory");
			r->x[r->n - 1] = m->x;
			*pos += m->len;
			++*mi;
			return 1;
		}
		if ((*pos >> w->blkbits) == (m->x.lstart >> w->blkbits))
			continue;
		*lim = m->x.lstart;
		return 0;
	}
	return 0;
}

/* Each cut costs about a block (the last extent before it is short), so
 * segments are long: 8 windows (8 MiB), a file of 2 or more is cut. */
#define SEG_WINDOWS 8

/* Segments: a large file is cut at fixed points into pieces that workers
 * compress apart (no extent crosses a cut), so one large file late in the
 * tree does not leave a core idle.  Not with -E dedupe, whose table takes
 * whole files; a segmented file's sum is of its segments' sums (equal
 * files are cut alike).  The packed inode is cut the same way, each
 * segment compressed as soon as the fragments have passed its end. */
static uint64_t seg_size(const struct ew *w)
{
	return SEG_WINDOWS * (uint64_t)w->ext_cap;
}

static uint32_t nsegs(const struct ew *w, const struct ew_ino *e)
{
	uint64_t n = e->size / seg_size(w);

	if (w->o->dedupe || e->frag == 2 || n < 2)
		return 1;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Segment seg of e. */
static struct zspan file_span(const struct ew *w, const struct ew_ino *e, uint32_t seg)
{
	struct zspan s = { seg * seg_size(w), 0, e->size, 0 };

	s.end = seg + 1 < nsegs(w, e) ? s.start + seg_size(w) : e->size;
	return s;
}

/* One span of e (a segment, or all of it); with whole (the file's bytes,
 * from its first pass) a pcluster of the dedupe table is tried before
 * each extent. */
static int compress_file(struct zctx *z, unsigned worker, const struct ew_ino *e,
			 const struct zspan *sp, struct zres *r, const uint8_t *whole,
			 const struct ff_vec *dm, struct ff_err *err)
{
	struct ew *w = z->w;
	int packed = sp->packed;
	uint64_t pos = sp->start, used = 0, skip_to = 0;
	struct window win = {
		.f = packed ? w->frag_file : NULL, .bstart = pos, .sum = &r->sum, .end = sp->end,
	};
	uint32_t room = !packed && !w->o->fragments && w->o->ztailpacking && e->late
			? ew_ztail_room(w, e) : 0;
	size_t mi = 0;
	int ret = 0, keep = w->dd && !packed && e->size <= DEDUPE_WHOLE_MAX;

	if (!packed && e->frag == 2)
		return 0; /* copied whole into the packed inode when placed */
	if (!packed && !whole && !(win.d = ff_tree_open_data(w->tree, e->n, err)))
		return -1;
	ew_codec_new_file(z->codecs[worker]);
	if (keep)
		ret = window_whole(w, &win, e, whole, err);
	else
		win.buf = z->wins[worker];
	while (pos < win.end && !ret) {
		size_t want = win.end - pos < w->ext_cap ? (size_t)(win.end - pos) : w->ext_cap;

		win.lim = win.end;
		if (dm && (ret = dedupe_step(w, dm, &mi, r, &pos, &win.lim, err)) != 0) {
			ret = ret < 0;
			continue;
		}
		ret = window_fill(&win, e, pos, want, err) ||
		      one_extent(z, worker, &win, pos, sp->size, r, &used, room, &skip_to, err);
		pos += used;
	}
	if (keep && !whole && !ret)
		r->whole = win.buf;
	else if (keep && !whole)
		free(win.buf);
	if (win.d)
		ff_data_close(win.d);
	return ret ? -1 : 0;
}

static void run_job(void *user, void *job, unsigned worker)
{
	struct zctx *z = user;
	struct zjob *j = job;
	const struct ew_ino *e = j->idx == PACKED_IDX ? &z->w->packed : &z->w->inos[j->idx];
	char path[4096];

	if (!compress_file(z, worker, e, &j->sp, j->res, NULL, NULL, &j->res->err))
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

	if (compress_file(z, z->self, e, &sp, n, r->whole, &dm, err))
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
	       r->len + r->tail_len + ER_MAP_HEADER_SIZE + 8 + nlc * ER_LCLUSTER_INDEX_SIZE >= e->size;
}

/* Stored flat (e->compressed stays: the flat pass skips it), written now. */
static int place_flat(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	ew_plan_flat(w, e);
	return ew_write_flat(w, e, err);
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
		if (r->frag ? ew_frag_append(w, e, r->tail, r->tail_len, err)
			    : ew_frag_copy(w, e, err))
			return -1;
		e->nblocks = 0;
		w->st->compressed_files++;
		return ew_zmap_encode(w, e, NULL, 0, err);
	}
	if (e != &w->packed && (s = ew_share_find(w, e, &r->sum, &first, err)) != 0) {
		/* a deduped first was cut unlike e's own extents: e is deduped too */
		if (s < 0)
			return -1;
		if (first->layout != ER_COMPRESSED_FULL && first->layout != ER_COMPRESSED_COMPACT)
			return place_flat(w, e, err);
		if (!first->deduped)
			return place_shared(w, e, first, r, err);
	}
	if (r->whole && dedupe_again(z, e, r, err))
		return -1;
	if (no_gain(w, e, r))
		return place_flat(w, e, err);
	if (r->frag) {
		e->frag = 1;
		if (ew_frag_append(w, e, r->tail, r->tail_len, err))
			return -1;
	} else {
		e->ztail = r->tail;
		e->inline_len = (uint32_t)r->tail_len;
		e->slot += e->inline_len;
		r->tail = NULL;
	}
	e->blkaddr = w->next_blk;
	e->nblocks = (uint32_t)(r->len >> w->blkbits);
	w->next_blk += e->nblocks;
	w->st->compressed_files++;
	return ff_outfile_write(&w->out, r->data, r->len, err) ||
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

static int zctx_init(struct zctx *z, struct ew *w, unsigned threads, struct ff_err *err)
{
	z->w = w;
	z->codecs = calloc(threads + 1, sizeof(*z->codecs));
	z->outs = calloc(threads + 1, sizeof(*z->outs));
	z->wins = calloc(threads + 1, sizeof(*z->wins));
	z->tmps = calloc(threads + 1, sizeof(*z->tmps));
	if (!z->codecs || !z->outs || !z->wins || !z->tmps)
		return ff_err_set(err, ENOMEM, "compression: out of memory");
	for (unsigned i = 0; i <= threads; i++) {
		z->codecs[i] = ew_codec_new(w->o->codec, w->o->level, w->ext_cap, w->pcluster, err);
		if (!z->codecs[i])
			return -1;
		if (!(z->outs[i] = malloc(w->pcluster)) || !(z->wins[i] = malloc(w->ext_cap)) ||
		    !(z->tmps[i] = malloc(2 * (size_t)w->pcluster)))
			return ff_err_set(err, ENOMEM, "compression: out of memory");
	}
	return 0;
}

static void zctx_free(struct zctx *z, unsigned threads)
{
	for (unsigned i = 0; z->codecs && i <= threads; i++) {
		ew_codec_free(z->codecs[i]);
		if (z->outs)
			free(z->outs[i]);
		if (z->wins)
			free(z->wins[i]);
		if (z->tmps)
			free(z->tmps[i]);
	}
	free(z->codecs);
	free(z->outs);
	free(z->wins);
	free(z->tmps);
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

/* The packed inode's segments: a file's segment when the fragments have
 * passed its end by as much again, so it is not the last (all = 0); once
 * all are in (all = 1), those the same rule gives, then the rest (less
 * than two segments) cut every TAIL_WINDOWS windows, so the end runs on
 * every worker.  The cuts depend on the fragments' bytes only. */
#define TAIL_WINDOWS 2

static void submit_packed(struct zctx *z, struct zsub *q, int all, struct ff_err *err)
{
	struct ew *w = z->w;
	uint64_t big = seg_size(w), piece = TAIL_WINDOWS * (uint64_t)w->ext_cap;
	uint64_t len = w->frag_len, end, n;

	while (!q->ret && q->packed_pos + 2 * big <= len) {
		struct zspan sp = { q->packed_pos, q->packed_pos + big, UINT64_MAX, 1 };

		submit(z, q, PACKED_IDX, q->packed_seg++, 0, &sp, err);
		q->packed_pos = sp.end;
	}
	n = (len - q->packed_pos) / piece;
	for (uint64_t k = 0; all && !q->ret && q->packed_pos < len; k++) {
		end = k + 1 < n ? q->packed_pos + piece : len;
		struct zspan sp = { q->packed_pos, end, len, 1 };

		submit(z, q, PACKED_IDX, q->packed_seg++, end == len, &sp, err);
		q->packed_pos = end;
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
		uint32_t k = e->compressed ? nsegs(w, e) : 0;

		for (uint32_t seg = 0; seg < k && !q->ret; seg++) {
			sp = file_span(w, e, seg);
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
	ret = zctx_init(&z, w, threads, err);
	if (!ret && w->o->dedupe)
		ret = ew_dedupe_init(w, err);
	if (!ret && !(q.pool = ff_pool_new(&cfg, err)))
		ret = -1;
	if (!ret)
		ret = ew_frag_open(w, err) || submit_all(&z, &q, err);
	ff_pool_free(q.pool);
	ew_frag_close(w);
	ew_dedupe_free(w);
	zctx_free(&z, threads);
	return ret;
}
