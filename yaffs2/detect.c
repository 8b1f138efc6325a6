/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Finding an image's geometry, tag layout and byte order.  Every candidate
 * (from the open options, or the common geometries) is judged on the same
 * window of the image (its first bytes that are not all erased): the
 * candidate that explains the most chunks in that window wins.  Counting
 * chunks per byte window, not per sampled page, matters: a candidate with
 * pages N times too large still finds valid tags (those of every N-th real
 * chunk) on every page it looks at, but explains only 1/N of the chunks the
 * right geometry does.  Header chunks are decoded only as far as the
 * candidate's chunk holds them (496 bytes on 512-byte inband pages). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/fs.h"
#include "common/nand.h"
#include "yaffs2/reader.h"
#include "yaffs2/scan.h"
#include "yaffs2/tags.h"

/* 1 MiB holds about 60 pages of the largest geometry (16384 + 1024) and
 * about 1000 of the smallest. */
#define WINDOW_BYTES (1u << 20)

struct cand {
	struct ff_y2_layout lay;
	int big;
};

/* At most this many leading all-erased windows are skipped: a dump of a
 * used partition may start with erased blocks. */
#define MAX_ERASED_WINDOWS 256

struct window {
	uint8_t *buf;
	uint64_t start;  /* image offset of buf[0] */
	uint64_t len;
	uint64_t bytes;  /* the whole image's */
};

/* 16-byte tags in the OOB leave the next 12 bytes erased; where they are
 * not, the image carries the tags ECC and this candidate is wrong. */
static int plain_tail_erased(const struct cand *c, const uint8_t *raw)
{
	struct ff_y2_layout wide = c->lay;
	uint8_t tb[FF_Y2_TAGS_SIZE_ECC];

	if (c->lay.tags_size != FF_Y2_TAGS_SIZE_PLAIN || c->lay.kind == FF_Y2_LAYOUT_INBAND)
		return 1;
	wide.tags_size = FF_Y2_TAGS_SIZE_ECC;
	if (wide.kind == FF_Y2_LAYOUT_LINUX && wide.mtd_free_bytes < FF_Y2_TAGS_SIZE_ECC)
		return 1;
	if (wide.kind == FF_Y2_LAYOUT_OFFSET0 && wide.geom.oob_size < FF_Y2_TAGS_SIZE_ECC)
		return 1;
	ff_y2_page_get_tags(&wide, raw, tb);
	for (int i = FF_Y2_TAGS_SIZE_PLAIN; i < FF_Y2_TAGS_SIZE_ECC; i++)
		if (tb[i] != 0xff)
			return 0;
	return 1;
}

/* A header chunk must decode, and kernel-style header tags repeat the
 * header's parent and type: under a wrong page size the tags found belong
 * to another chunk than the data they are read with, and these disagree. */
static int header_plausible(const struct cand *c, const uint8_t *raw, const struct ff_y2_tags *t)
{
	struct ff_y2_obj_header oh;

	if (ff_y2_obj_header_decode_len(raw, ff_y2_obj_header_len(c->lay.chunk_bytes),
					ff_y2_hdr_big(c->big), &oh, NULL))
		return 0;
	return !t->has_extra || (oh.parent_id == t->extra_parent && oh.type == t->extra_type);
}

/* 1 plausible, 0 erased, -1 implausible. */
static int page_plausible(const struct cand *c, const uint8_t *raw)
{
	uint8_t tb[FF_Y2_TAGS_SIZE_ECC];
	struct ff_y2_tags t;
	enum ff_y2_tags_result r;

	ff_y2_page_get_tags(&c->lay, raw, tb);
	if (!plain_tail_erased(c, raw))
		return -1;
	r = ff_y2_tags_unpack(tb, ff_y2_tags_big(c->big), c->lay.tags_size == FF_Y2_TAGS_SIZE_ECC, &t);
	if (r == FF_Y2_TAGS_ERASED)
		return 0;
	if (r == FF_Y2_TAGS_UNFIXED || t.seq < FF_Y2_SEQ_LOWEST || t.seq > FF_Y2_SEQ_HIGHEST ||
	    t.obj_id == 0 || t.obj_id > FF_Y2_OBJID_MAX)
		return -1;
	if (t.chunk_id == 0)
		return header_plausible(c, raw, &t) ? 1 : -1;
	return t.n_bytes <= c->lay.chunk_bytes && t.chunk_id <= FF_Y2_READ_MAX_CHUNK_ID ? 1 : -1;
}

/* Score: chunks explained minus twice the implausible pages in the window,
 * or -1 when more than one page in five is implausible (a dump may hold a
 * few damaged pages; a wrong candidate makes most pages nonsense).  Doubled,
 * plus one where the image is a whole number of the candidate's pages: an
 * image of one or two chunks is explained as well under any page size whose
 * first pages coincide, and then the one that leaves no partial page wins. */
static int score(const struct window *w, const struct cand *c)
{
	uint64_t raw = c->lay.raw_page;
	uint64_t first = (w->start + raw - 1) / raw, end = (w->start + w->len) / raw;
	int good = 0, bad = 0;

	if (end <= first)
		return -1;
	for (uint64_t p = first; p < end; p++) {
		int k = page_plausible(c, w->buf + (p * raw - w->start));

		if (k < 0)
			bad++;
		else
			good += k;
	}
	if (bad * 4 > good)
		return -1;
	return 2 * (good - 2 * bad) + (w->bytes % raw == 0);
}

struct axes {
	uint32_t pages[6], n_pages;
	const char *layouts[3];
	uint32_t n_layouts;
	int bigs[4], n_bigs;
	int tag_eccs[2], n_tag_eccs;
};

static void fill_axes(const struct ff_yaffs2_opts *o, struct axes *a)
{
	static const char *const std_layouts[3] = { "linux", "offset0", "inband" };
	size_t n_std;
	const uint32_t *std_pages = ff_nand_page_sizes(&n_std);

	memset(a, 0, sizeof(*a));
	if (o && o->page_size)
		a->pages[a->n_pages++] = o->page_size;
	else
		for (size_t i = 0; i < n_std && i < 6; i++)
			a->pages[a->n_pages++] = std_pages[i];
	if (o && o->oob_layout)
		a->layouts[a->n_layouts++] = o->oob_layout;
	else
		for (int i = 0; i < 3; i++)
			a->layouts[a->n_layouts++] = std_layouts[i];
	/* The headers' order is what "endian" means to a user; the tags may
	 * follow it or not (mkyaffs2image -c). */
	if (!o || o->big_endian != 1)
		a->bigs[a->n_bigs++] = 0;
	if (!o || o->big_endian != 0)
		a->bigs[a->n_bigs++] = FF_Y2_BIG_BOTH;
	if (!o || o->big_endian != 0)
		a->bigs[a->n_bigs++] = FF_Y2_BIG_HDR;
	if (!o || o->big_endian != 1)
		a->bigs[a->n_bigs++] = FF_Y2_BIG_TAGS;
	a->tag_eccs[a->n_tag_eccs++] = 1;
	a->tag_eccs[a->n_tag_eccs++] = 0;
}

static void try_oobs(const struct window *w, const struct ff_yaffs2_opts *o, struct cand *c,
		     const char *layout, int tecc, struct cand *best, int *best_score)
{
	uint32_t oobs[4];
	size_t n = ff_nand_oob_sizes(c->lay.geom.page_size, oobs);

	/* Large pages also come with little spare: 4096+64, 4096+32. */
	for (uint32_t d = 64; d <= 128; d *= 2)
		if (c->lay.geom.page_size / d >= 16)
			oobs[n++] = c->lay.geom.page_size / d;
	if (o && o->oob_size) {
		oobs[0] = o->oob_size;
		n = 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct ff_y2_geom g = c->lay.geom;
		int sc;

		g.oob_size = oobs[i];
		if (ff_y2_layout_init(&c->lay, &g, layout, NULL, tecc, NULL))
			continue;
		sc = score(w, c);
		if (sc > *best_score) {
			*best_score = sc;
			*best = *c;
		}
		if (!strcmp(layout, "inband"))
			break; /* the OOB size does not matter */
	}
}

/* Pages per block: the largest power of two that every observed block start
 * (a change of sequence number) and the page count are multiples of. */
static uint32_t guess_ppb(struct ff_bsrc *src, uint64_t offset, uint64_t bytes, const struct cand *c,
			  uint8_t *buf)
{
	uint64_t pages = bytes / c->lay.raw_page, limit = pages < 65536 ? pages : 65536;
	uint64_t mask = pages;
	uint32_t last_seq = 0, ppb = 1024;

	for (uint64_t p = 0; p < limit; p++) {
		uint8_t tb[FF_Y2_TAGS_SIZE_ECC];
		struct ff_y2_tags t;

		if (ff_bsrc_pread(src, buf, c->lay.raw_page, offset + p * c->lay.raw_page) !=
		    (ssize_t)c->lay.raw_page)
			break;
		ff_y2_page_get_tags(&c->lay, buf, tb);
		if (ff_y2_tags_unpack(tb, ff_y2_tags_big(c->big), c->lay.tags_size == FF_Y2_TAGS_SIZE_ECC, &t) !=
		    FF_Y2_TAGS_OK)
			continue;
		if (last_seq && t.seq != last_seq)
			mask |= p;
		last_seq = t.seq;
	}
	while (ppb > 2 && (mask & (ppb - 1)))
		ppb >>= 1;
	return ppb == 1024 && pages > 1024 ? 64 : ppb;
}

/* Read the window at w->start (shorter at the end of the image). */
static void read_window(struct ff_bsrc *src, uint64_t offset, uint64_t bytes, struct window *w)
{
	uint64_t want = bytes - w->start < WINDOW_BYTES ? bytes - w->start : WINDOW_BYTES;

	w->len = 0;
	while (w->len < want) {
		ssize_t got = ff_bsrc_pread(src, w->buf + w->len, want - w->len,
					    offset + w->start + w->len);

		if (got <= 0)
			break; /* judge what could be read */
		w->len += (uint64_t)got;
	}
}

/* The first window that is not entirely erased (or the last one tried). */
static int first_window(struct ff_bsrc *src, uint64_t offset, uint64_t bytes, struct window *w,
			struct ff_err *err)
{
	w->start = w->len = 0;
	w->bytes = bytes;
	w->buf = malloc(WINDOW_BYTES);
	if (!w->buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < MAX_ERASED_WINDOWS; i++) {
		read_window(src, offset, bytes, w);
		if (!ff_all_bytes(w->buf, w->len, 0xff) || w->len < WINDOW_BYTES ||
		    w->start + w->len >= bytes)
			break;
		w->start += WINDOW_BYTES;
	}
	return 0;
}

static void find_best(const struct window *w, const struct ff_yaffs2_opts *opts,
		      struct cand *best, int *best_score)
{
	struct axes a;
	struct cand c;

	fill_axes(opts, &a);
	for (uint32_t p = 0; p < a.n_pages; p++)
		for (uint32_t l = 0; l < a.n_layouts; l++)
			for (int b = 0; b < a.n_bigs; b++)
				for (int e = 0; e < a.n_tag_eccs; e++) {
					memset(&c, 0, sizeof(c));
					c.lay.geom.page_size = a.pages[p];
					c.lay.geom.pages_per_block = 64;
					c.big = a.bigs[b];
					try_oobs(w, opts, &c, a.layouts[l], a.tag_eccs[e], best,
						 best_score);
				}
}

int ff_y2_detect(struct ff_bsrc *src, uint64_t offset, uint64_t bytes, const struct ff_yaffs2_opts *opts,
		 struct ff_y2_layout *lay, int *big, struct ff_err *err)
{
	struct window w;
	struct cand best;
	int best_score = 0;

	if (first_window(src, offset, bytes, &w, err))
		return -1;
	memset(&best, 0, sizeof(best));
	find_best(&w, opts, &best, &best_score);
	if (best_score < 2) {
		free(w.buf);
		return ff_err_set(err, EINVAL, "no YAFFS2 geometry, tag layout and byte order"
				  " fits the %llu bytes at offset %llu (%llu bytes in all)",
				  (unsigned long long)w.len, (unsigned long long)w.start,
				  (unsigned long long)bytes);
	}
	*lay = best.lay;
	*big = best.big;
	/* The window buffer (WINDOW_BYTES) holds a page of any geometry. */
	lay->geom.pages_per_block = opts && opts->pages_per_block ? opts->pages_per_block
				    : guess_ppb(src, offset, bytes, &best, w.buf);
	free(w.buf);
	return 0;
}
