/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The blob scan (scan.h).  A table by first byte finds every magic at every
 * offset in one pass over each chunk; a format without a magic is tried
 * every scan_align bytes, a costly one at most COSTLY_TRIES times.  Only a
 * probe that decoded soundly (FF_PROBE_VALID) counts, so random bytes find
 * nothing. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "image/registry.h"
#include "image/scan.h"

#define CHUNK (1u << 20)
#define OVERLAP 4096u /* past the largest magic end (EROFS: 1024 + 4) */
#define COSTLY_TRIES 32
#define MAX_HITS 4096

struct magic_ref {
	const struct ff_format *fmt;
	const struct ff_magic *m;
};

struct scanner {
	struct ff_bsrc *src;
	const struct ff_open_opts *opts;
	uint64_t start, end;
	struct magic_ref *by_byte[256];
	size_t n_by_byte[256];
	unsigned tries[64];
	/* Per format (registry index), where its last image found ends: a
	 * magic of the same format before that is one of its parts (every
	 * JFFS2 node, every YAFFS2 chunk), not an image, and is not probed. */
	uint64_t inside[64];
	uint8_t *probe_buf;
	size_t probe_cap;
	struct ff_scan_result *out;
	size_t cap;
};

static int index_magics(struct scanner *s)
{
	for (size_t i = 0; i < ff_format_count(); i++) {
		const struct ff_format *f = ff_format_at(i);

		for (const struct ff_magic *m = f->magics; m && m->len; m++) {
			uint8_t b = m->bytes[0];
			struct magic_ref *v = realloc(s->by_byte[b],
						      (s->n_by_byte[b] + 1) * sizeof(*v));

			if (!v)
				return -ENOMEM;
			v[s->n_by_byte[b]++] = (struct magic_ref){ f, m };
			s->by_byte[b] = v;
		}
		if (f->probe_len > s->probe_cap)
			s->probe_cap = f->probe_len;
	}
	s->probe_buf = malloc(s->probe_cap ? s->probe_cap : 1);
	return s->probe_buf ? 0 : -ENOMEM;
}

static int add_hit(struct scanner *s, uint64_t off, const struct ff_format *f,
		   const struct ff_probe *p)
{
	struct ff_scan_result *r = s->out;

	for (size_t i = 0; i < r->n; i++) /* two magics of one format at one offset */
		if (r->hits[i].off == off && r->hits[i].found.fmt == f)
			return 0;
	if (r->n == MAX_HITS)
		return 0;
	if (r->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct ff_scan_hit *h = realloc(r->hits, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		r->hits = h;
		s->cap = cap;
	}
	r->hits[r->n] = (struct ff_scan_hit){ .off = off };
	r->hits[r->n].found.fmt = f;
	r->hits[r->n++].found.probe = *p;
	return 0;
}

/* 1 when the probe went past its cheap test, 0 when not, or -errno. */
static int try_at(struct scanner *s, const struct ff_format *f, uint64_t off)
{
	struct ff_probe res;
	ssize_t n;

	size_t i = 0;

	while (i < ff_format_count() && ff_format_at(i) != f)
		i++;
	if (off < s->start || off >= s->end || (i < 64 && off < s->inside[i]))
		return 0;
	n = ff_bsrc_pread(s->src, s->probe_buf, s->probe_cap, off);
	if (n < 0)
		return (int)n;
	if (ff_probe_one(f, s->src, off, s->probe_buf, (size_t)n, s->opts, &res) < FF_PROBE_VALID)
		return res.deep;
	if (i < 64 && res.size)
		s->inside[i] = off + res.size;
	return add_hit(s, off, f, &res) < 0 ? -ENOMEM : res.deep;
}

static int magics_in(struct scanner *s, const uint8_t *buf, size_t len, size_t upto,
		     uint64_t base)
{
	for (size_t p = 0; p < upto; p++) {
		const struct magic_ref *v = s->by_byte[buf[p]];

		for (size_t k = 0; k < s->n_by_byte[buf[p]]; k++) {
			const struct ff_magic *m = v[k].m;
			int rc;

			if (p + m->len > len || memcmp(buf + p, m->bytes, m->len) ||
			    base + p < m->at)
				continue;
			if ((rc = try_at(s, v[k].fmt, base + p - m->at)) < 0)
				return rc;
		}
	}
	return 0;
}

/* Formats with no magic, every scan_align bytes of this chunk. */
static int aligned_in(struct scanner *s, uint64_t base, size_t upto)
{
	for (size_t i = 0; i < ff_format_count() && i < 64; i++) {
		const struct ff_format *f = ff_format_at(i);
		uint64_t a = f->scan_align, off;

		if (f->magics || !a)
			continue;
		for (off = (base + a - 1) / a * a; off < base + upto; off += a) {
			int rc;

			if (f->costly && s->tries[i] >= COSTLY_TRIES)
				break;
			if ((rc = try_at(s, f, off)) < 0)
				return rc;
			s->tries[i] += (unsigned)rc;
		}
	}
	return 0;
}

static int cmp_hit(const void *a, const void *b)
{
	const struct ff_scan_hit *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* A hit of a format without a magic after an earlier hit of the same
 * format whose size its probe could not tell, with nothing else between:
 * a later page of that image (a YAFFS2 object header on a scan_align
 * boundary), not an image of its own.  (Two such images back to back are
 * taken for one; --offset opens the second.) */
static int continues(const struct ff_scan_hit *prev, const struct ff_scan_hit *h)
{
	return prev->found.fmt == h->found.fmt && !h->found.fmt->magics &&
	       !prev->found.probe.size;
}

/* Sorted by offset; a hit inside an earlier one of known size is a part
 * of it (a superblock copy, a file's bytes), not an image of its own. */
static void drop_nested(struct ff_scan_result *r)
{
	uint64_t until = 0;
	size_t k = 0;

	if (!r->n)
		return; /* qsort wants a base even for none */
	qsort(r->hits, r->n, sizeof(*r->hits), cmp_hit);
	for (size_t i = 0; i < r->n; i++) {
		if (k && (r->hits[i].off < until || continues(&r->hits[k - 1], &r->hits[i])))
			continue;
		r->hits[k++] = r->hits[i];
		if (r->hits[i].found.probe.size)
			until = r->hits[i].off + r->hits[i].found.probe.size;
	}
	r->n = k;
}

static int run(struct scanner *s)
{
	uint8_t *buf = malloc(CHUNK + OVERLAP);
	int rc = buf ? 0 : -ENOMEM;

	for (uint64_t base = s->start; !rc && base < s->end; base += CHUNK) {
		ssize_t n = ff_bsrc_pread(s->src, buf, CHUNK + OVERLAP, base);
		size_t upto;

		if (n <= 0) {
			rc = n < 0 ? (int)n : 0;
			break;
		}
		upto = (size_t)n < CHUNK ? (size_t)n : CHUNK;
		if (base + upto > s->end)
			upto = (size_t)(s->end - base);
		rc = magics_in(s, buf, (size_t)n, upto, base);
		if (!rc)
			rc = aligned_in(s, base, upto);
	}
	free(buf);
	return rc;
}

int ff_scan(struct ff_bsrc *src, uint64_t start, uint64_t end, const struct ff_open_opts *opts,
	    struct ff_scan_result *out)
{
	struct scanner s = { .src = src, .opts = opts, .start = start, .out = out };
	int rc;

	memset(out, 0, sizeof(*out));
	s.end = end < src->size ? end : src->size;
	rc = index_magics(&s);
	if (!rc)
		rc = run(&s);
	for (int b = 0; b < 256; b++)
		free(s.by_byte[b]);
	free(s.probe_buf);
	if (rc < 0) {
		ff_scan_result_free(out);
		return rc;
	}
	drop_nested(out);
	return 0;
}

void ff_scan_result_free(struct ff_scan_result *r)
{
	free(r->hits);
	r->hits = NULL;
	r->n = 0;
}
