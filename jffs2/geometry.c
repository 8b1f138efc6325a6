/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Byte order and erase-block size of a JFFS2 image, which stores neither.
 * A first pass walks the whole image linearly, 4 bytes at a time, jumping
 * over every node whose header CRC is sound; what it sees decides:
 *   - the order: the one under which such nodes are found;
 *   - the erase-block size: a summary's marker gives it exactly (the
 *     summary's offset in its block plus its length); else the spacing of
 *     cleanmarkers (each erase block starts with one); else the smallest
 *     candidate under which no node straddles a block boundary, since the
 *     kernel never writes such a node and rejects one it finds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "jffs2/node.h"
#include "jffs2/scan.h"

#define WIN_BYTES (256u << 10)
#define N_CAND 7 /* 4 KiB .. 256 KiB */
#define ERASE_MIN 4096u
#define ERASE_MAX (16u << 20)

struct win {
	struct ff_bsrc *src;
	uint8_t *buf;
	uint64_t start;
	size_t len;
};

/* n bytes at pos (n <= WIN_BYTES, pos + n <= source size), or NULL. */
static const uint8_t *win_get(struct win *w, uint64_t pos, size_t n, struct ff_err *err)
{
	if (pos >= w->start && pos + n <= w->start + w->len)
		return w->buf + (pos - w->start);
	w->len = w->src->size - pos < WIN_BYTES ? (size_t)(w->src->size - pos) : WIN_BYTES;
	w->start = pos;
	if (ff_bsrc_read(w->src, w->buf, w->len, pos, err) < 0)
		return NULL;
	return w->buf;
}

struct seen {
	uint64_t nodes, straddle[N_CAND];
	uint64_t clean_gcd;      /* of the nonzero cleanmarker offsets */
	uint32_t sum_erase;      /* from a summary marker, or 0 */
};

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int pow2_in_range(uint64_t e)
{
	return e >= ERASE_MIN && e <= ERASE_MAX && !(e & (e - 1));
}

/* A summary ends its erase block with {offset, magic}: the block is the
 * summary's offset in it plus its length. */
static void note_summary(struct win *w, uint64_t pos, uint32_t totlen, int big,
			 struct seen *sn, struct ff_err *err)
{
	const uint8_t *m;
	uint32_t off;
	uint64_t e;

	if (totlen < J2_SUMMARY_SIZE + J2_SUM_MARKER_SIZE || sn->sum_erase)
		return;
	m = win_get(w, pos + totlen - J2_SUM_MARKER_SIZE, J2_SUM_MARKER_SIZE, err);
	if (!m || !j2_summary_marker(m, big, &off))
		return;
	e = (uint64_t)off + totlen;
	if (pow2_in_range(e) && pos % e == off)
		sn->sum_erase = (uint32_t)e;
}

static void note_node(struct win *w, uint64_t pos, const struct j2_hdr *h, int big,
		      struct seen *sn, struct ff_err *err)
{
	sn->nodes++;
	for (int i = 0; i < N_CAND; i++) {
		uint64_t c = (uint64_t)ERASE_MIN << i;

		if (pos / c != (pos + h->totlen - 1) / c)
			sn->straddle[i]++;
	}
	if ((h->type | J2_ACCURATE) == J2_NT_CLEANMARKER && pos)
		sn->clean_gcd = gcd64(sn->clean_gcd, pos);
	if (h->type == J2_NT_SUMMARY)
		note_summary(w, pos, h->totlen, big, sn, err);
}

static int prescan(struct ff_bsrc *src, int big, struct seen *sn, struct ff_err *err)
{
	struct win w = { src, NULL, 0, 0 };
	uint64_t pos = 0;

	memset(sn, 0, sizeof(*sn));
	w.buf = malloc(WIN_BYTES);
	if (!w.buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	while (pos + J2_HDR_SIZE <= src->size) {
		const uint8_t *b = win_get(&w, pos, J2_HDR_SIZE, err);
		struct j2_hdr h;

		if (!b) {
			free(w.buf);
			return -1;
		}
		if (ff_get16(b, big) == J2_MAGIC && j2_hdr_decode(b, big, &h) &&
		    h.totlen >= J2_HDR_SIZE && h.totlen <= src->size - pos) {
			note_node(&w, pos, &h, big, sn, err);
			pos += j2_pad(h.totlen);
		} else {
			pos += 4;
		}
	}
	free(w.buf);
	return 0;
}

static void pick_erase(const struct seen *sn, const struct ff_flash_hint *hint,
		       struct j2_geometry *g)
{
	int best = 0;

	if (hint && hint->erase_size) {
		g->erase = hint->erase_size;
		g->how = J2_ERASE_GIVEN;
		return;
	}
	if (sn->sum_erase) {
		g->erase = sn->sum_erase;
		g->how = J2_ERASE_SUMMARY;
		return;
	}
	if (pow2_in_range(sn->clean_gcd)) {
		g->erase = (uint32_t)sn->clean_gcd;
		g->how = J2_ERASE_CLEANMARKERS;
		return;
	}
	for (int i = 1; i < N_CAND; i++)
		if (sn->straddle[i] < sn->straddle[best])
			best = i;
	g->erase = ERASE_MIN << best;
	g->how = J2_ERASE_LAYOUT;
}

int j2_geometry_detect(struct ff_bsrc *src, const struct ff_flash_hint *hint,
		       struct j2_geometry *g, struct ff_err *err)
{
	struct seen sn;
	enum ff_byte_order order = hint ? hint->byte_order : FF_ORDER_DETECT;

	if (hint && hint->erase_size && (hint->erase_size < 1024 || hint->erase_size % 4 ||
					 hint->erase_size > ERASE_MAX))
		return ff_err_set(err, EINVAL, "erase-block size %u is not a multiple of 4 from 1 KiB to 16 MiB",
				  hint->erase_size);
	g->big = order == FF_ORDER_BIG;
	if (prescan(src, g->big, &sn, err))
		return -1;
	if (!sn.nodes && order == FF_ORDER_DETECT) {
		g->big = 1;
		if (prescan(src, 1, &sn, err))
			return -1;
	}
	if (!sn.nodes)
		return ff_err_set(err, EINVAL, "no JFFS2 node with a sound header CRC in %llu bytes",
				  (unsigned long long)src->size);
	pick_erase(&sn, hint, g);
	return 0;
}

const char *j2_erase_how_name(enum j2_erase_how how)
{
	switch (how) {
	case J2_ERASE_GIVEN: return "given";
	case J2_ERASE_SUMMARY: return "summary";
	case J2_ERASE_CLEANMARKERS: return "cleanmarkers";
	default: return "layout";
	}
}
