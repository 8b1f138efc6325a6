/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One span of a compressed file on one worker: read through a window,
 * cut into extents, each the longest run of input whose stream fits in
 * one pcluster (write_compress.c has the whole scheme); the tail trim of
 * -Eztailpacking and the dedupe table's matches are applied here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "erofs/compressor.h"
#include "erofs/layout.h"
#include "erofs/write_zspan.h"

int ew_zctx_init(struct zctx *z, struct ew *w, unsigned threads, struct ff_err *err)
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

void ew_zctx_free(struct zctx *z, unsigned threads)
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
	int frag;                  /* the last extent goes into the packed inode */
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
	int frag = win->frag;
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
	/* A block as is; the file's last may cross into the next lcluster
	 * (a block of input at most): the map puts a head at the end of the
	 * file there (write_zmap.c's eof_head), as mkfs.erofs 1.9 does,
	 * instead of a second block for the few bytes past the boundary. */
	n = win->lim - pos < w->blksz ? (size_t)(win->lim - pos) : w->blksz;
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
 * segments are long: 16 MiB (at least 8 windows), where mkfs.erofs 1.9.3
 * cuts a file, so a file is cut no more often than there; the packed
 * inode is cut the same way (write_compress.c). */
#define SEG_WINDOWS 8
#define FILE_SEG_BYTES (16ull << 20)

/* Segments: a large file is cut at fixed points into pieces that workers
 * compress apart (no extent crosses a cut), so one large file late in the
 * tree does not leave a core idle.  Not with -E dedupe, whose table takes
 * whole files; a segmented file's sum is of its segments' sums (equal
 * files are cut alike).  The packed inode is cut the same way, each
 * segment compressed as soon as the fragments have passed its end. */
uint64_t ew_file_seg_size(const struct ew *w)
{
	uint64_t s = SEG_WINDOWS * (uint64_t)w->ext_cap;

	return s < FILE_SEG_BYTES ? FILE_SEG_BYTES : s;
}

/* The bytes of e its extents take: all, or its head (ew_frag_plan). */
static uint64_t zlen(const struct ew_ino *e)
{
	return e->fraghead ? e->fraghead : e->size;
}

/* A file of two segments or more is cut; the last takes the rest. */
uint32_t ew_nsegs(const struct ew *w, const struct ew_ino *e)
{
	uint64_t n = zlen(e) / ew_file_seg_size(w);

	if (w->o->dedupe || e->frag == 2 || n < 2)
		return 1;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Segment seg of e. */
struct zspan ew_file_span(const struct ew *w, const struct ew_ino *e, uint32_t seg)
{
	struct zspan s = { seg * ew_file_seg_size(w), 0, zlen(e), 0 };

	s.end = seg + 1 < ew_nsegs(w, e) ? s.start + ew_file_seg_size(w) : zlen(e);
	return s;
}

/* After a head's extents (ew_frag_plan), the fragment: the rest of the
 * file, its bytes in the packed inode already. */
static int head_done(struct zres *r, const struct ew_ino *e, struct ff_err *err)
{
	if (ew_res_extent(r, e->fraghead, 0, 0))
		return ff_err_set(err, ENOMEM, "extents: out of memory");
	r->x[r->n - 1].frag = 1;
	r->frag = 1;
	return 0;
}

/* One span of e (a segment, or all of it); with whole (the file's bytes,
 * from its first pass) a pcluster of the dedupe table is tried before
 * each extent. */
int ew_zspan_compress(struct zctx *z, unsigned worker, const struct ew_ino *e,
		      const struct zspan *sp, struct zres *r, const uint8_t *whole,
		      const struct ff_vec *dm, struct ff_err *err)
{
	struct ew *w = z->w;
	int packed = sp->packed;
	uint64_t pos = sp->start, used = 0, skip_to = 0;
	struct window win = {
		.f = packed ? w->frag_file : NULL, .bstart = pos, .sum = &r->sum, .end = sp->end,
		.frag = !packed && w->o->fragments && !e->fraghead,
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
	if (!ret && e->fraghead && sp->end == e->fraghead)
		ret = head_done(r, e, err);
	if (keep && !whole && !ret)
		r->whole = win.buf;
	else if (keep && !whole)
		free(win.buf);
	if (win.d)
		ff_data_close(win.d);
	return ret ? -1 : 0;
}
