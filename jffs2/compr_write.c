/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.jffs2's compressors, the one place the write side calls a codec
 * (facts from mtd-utils' compr*.c).  Each gets the input and `space`, the
 * room left for stored bytes, and may take only part of the input:
 *   zlib: deflate level 3, fed min(input left, room left - 12) bytes per
 *     Z_PARTIAL_FLUSH call until the room (less 12 kept for the end) or
 *     the input is used up, then Z_FINISH; fails unless smaller;
 *   rtime: JFFS2's byte LZ (rtime.c decodes it), stopping when the room
 *     is used up; fails unless smaller;
 *   lzo: LZO1X-999 of the whole input, taken when it fits the room.
 * Priority mode takes the first in the list that succeeds; size mode the
 * smallest that is smaller than what it took; favourlzo prefers LZO
 * within 80%.  When none succeeds, `space` input bytes are stored as
 * they are.  Every call is a pure function of its arguments, which is
 * what lets the builder compress on any thread. */
#include <errno.h>
#ifndef FF_NO_LZO
#include <lzo/lzo1x.h>
#else
#define LZO1X_999_MEM_COMPRESS 1 /* never used: lzo cannot be enabled */
#endif
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "compress/compress.h"
#include "jffs2/write_priv.h"

#define ZLIB_END_SPACE 12u
#define FAVOUR_LZO_PERCENT 80u

static const char *const compr_names[FF_J2C_COUNT] = { "zlib", "rtime", "lzo" };
static const uint8_t compr_ids[FF_J2C_COUNT] = { J2_COMPR_ZLIB, J2_COMPR_RTIME, J2_COMPR_LZO };

struct j2_compr_scratch {
	z_stream z;   /* deflateReset between pieces: a fresh deflateInit
		       * per page cost a quarter MiB allocated, faulted in and
		       * handed back to the kernel each time */
	int z_ready;
	void *lzo_mem;
	uint8_t *lzo_out;
	uint8_t *try_out[FF_J2C_COUNT]; /* size and favourlzo modes */
};

size_t j2_compr_out_size(uint32_t page_size)
{
	return (size_t)page_size + page_size / 16 + 64 + 3;
}

struct j2_compr_scratch *j2_compr_scratch_new(uint32_t page_size)
{
	struct j2_compr_scratch *s = calloc(1, sizeof(*s));
	size_t n = j2_compr_out_size(page_size);

	if (!s)
		return NULL;
	s->z_ready = deflateInit(&s->z, 3) == Z_OK;
	s->lzo_mem = malloc(LZO1X_999_MEM_COMPRESS);
	s->lzo_out = malloc(n);
	for (int i = 0; i < FF_J2C_COUNT; i++)
		s->try_out[i] = malloc(n);
	if (!s->z_ready || !s->lzo_mem || !s->lzo_out || !s->try_out[0] || !s->try_out[1] || !s->try_out[2]) {
		j2_compr_scratch_free(s);
		return NULL;
	}
	return s;
}

void j2_compr_scratch_free(struct j2_compr_scratch *s)
{
	if (!s)
		return;
	if (s->z_ready)
		deflateEnd(&s->z);
	free(s->lzo_mem);
	free(s->lzo_out);
	for (int i = 0; i < FF_J2C_COUNT; i++)
		free(s->try_out[i]);
	free(s);
}

/* deflateReset leaves the stream as deflateInit made it (the same
 * level, window and memory level), so the bytes are those of a fresh
 * stream. */
static int zlib_try(z_stream *z, const uint8_t *in, uint32_t *len, uint8_t *out,
		    uint32_t *space)
{
	int ret;

	if (*space <= ZLIB_END_SPACE || deflateReset(z) != Z_OK)
		return -1;
	z->next_in = (Bytef *)(uintptr_t)in;
	z->next_out = out;
	while (z->total_out < *space - ZLIB_END_SPACE && z->total_in < *len) {
		z->avail_out = (uInt)(*space - (z->total_out + ZLIB_END_SPACE));
		z->avail_in = (uInt)(*len - z->total_in);
		if (z->avail_in > z->avail_out)
			z->avail_in = z->avail_out;
		if (deflate(z, Z_PARTIAL_FLUSH) != Z_OK)
			return -1;
	}
	z->avail_out += ZLIB_END_SPACE;
	z->avail_in = 0;
	ret = deflate(z, Z_FINISH);
	if (ret != Z_STREAM_END || z->total_out >= z->total_in)
		return -1;
	*space = (uint32_t)z->total_out;
	*len = (uint32_t)z->total_in;
	return 0;
}

/* Each byte is followed by how many bytes after it repeat those after
 * the previous occurrence of that byte (positions are 16-bit, as in
 * mkfs.jffs2, which only matters for pages past 32 KiB). */
static int rtime_try(const uint8_t *in, uint32_t *len, uint8_t *out, uint32_t *space)
{
	int16_t last[256];
	uint32_t o = 0, pos = 0;

	memset(last, 0, sizeof(last));
	while (pos < *len && o + 2 <= *space) {
		uint8_t value = in[pos];
		int back = last[value];
		uint32_t run = 0;

		out[o++] = in[pos++];
		last[value] = (int16_t)pos;
		while (back < (int)pos && pos < *len && in[pos] == in[back++] && run < 255) {
			pos++;
			run++;
		}
		out[o++] = (uint8_t)run;
	}
	if (o >= pos)
		return -1;
	*len = pos;
	*space = o;
	return 0;
}

static int lzo_try(struct j2_compr_scratch *s, const uint8_t *in, uint32_t len, uint8_t *out,
		   uint32_t *space)
{
#ifdef FF_NO_LZO
	(void)s, (void)in, (void)len, (void)out, (void)space;
	return -1;
#else
	lzo_uint n = 0;

	if (lzo1x_999_compress(in, len, s->lzo_out, &n, s->lzo_mem) != LZO_E_OK || n > *space)
		return -1;
	memcpy(out, s->lzo_out, n);
	*space = (uint32_t)n;
	return 0;
#endif
}

static int try_one(int which, struct j2_compr_scratch *s, const uint8_t *in, uint32_t *len,
		   uint8_t *out, uint32_t *space)
{
	switch (which) {
	case FF_J2C_ZLIB: return zlib_try(&s->z, in, len, out, space);
	case FF_J2C_RTIME: return rtime_try(in, len, out, space);
	default: return lzo_try(s, in, *len, out, space);
	}
}

static int better(int mode, int this, int best, uint32_t size, uint32_t best_size)
{
	if (mode == FF_J2M_SIZE)
		return best_size > size;
	if (this == FF_J2C_LZO && best_size > size)
		return 1;
	if (best != FF_J2C_LZO && best_size > size)
		return 1;
	if (this == FF_J2C_LZO && best_size > size * FAVOUR_LZO_PERCENT / 100)
		return 1;
	return best_size * FAVOUR_LZO_PERCENT / 100 > size;
}

static unsigned pick_best(const struct ff_jffs2_compr *c, struct j2_compr_scratch *s,
			  const uint8_t *in, uint32_t len, uint32_t space, uint8_t *out,
			  uint32_t *used, uint32_t *stored)
{
	int best = -1;
	uint32_t best_used = 0, best_size = 0;

	for (int k = 0; k < FF_J2C_COUNT; k++) {
		int i = c->order[k];
		uint32_t u = len, sz = space;

		if (c->disabled[i] || try_one(i, s, in, &u, s->try_out[i], &sz))
			continue;
		if ((!best_size || better(c->mode, i, best, sz, best_size)) && sz < u) {
			best = i;
			best_size = sz;
			best_used = u;
		}
	}
	if (best < 0)
		return J2_COMPR_NONE;
	memcpy(out, s->try_out[best], best_size);
	*used = best_used;
	*stored = best_size;
	return compr_ids[best];
}

unsigned j2_compress(const struct ff_jffs2_compr *c, struct j2_compr_scratch *s,
		     const uint8_t *in, uint32_t len, uint32_t space, uint8_t *out,
		     uint32_t *used, uint32_t *stored)
{
	*used = *stored = space;
	if (c->mode == FF_J2M_NONE)
		return J2_COMPR_NONE;
	if (c->mode != FF_J2M_PRIORITY) {
		unsigned id = pick_best(c, s, in, len, space, out, used, stored);

		if (id == J2_COMPR_NONE)
			*used = *stored = space;
		return id;
	}
	for (int k = 0; k < FF_J2C_COUNT; k++) {
		int i = c->order[k];
		uint32_t u = len, sz = space;

		if (c->disabled[i] || try_one(i, s, in, &u, out, &sz))
			continue;
		*used = u;
		*stored = sz;
		return compr_ids[i];
	}
	return J2_COMPR_NONE;
}

/* Places compressor i before the first one of lower priority. */
static void insert(struct ff_jffs2_compr *c, int i, int n)
{
	int at = n;

	for (int k = 0; k < n; k++)
		if (c->prio[c->order[k]] < c->prio[i]) {
			at = k;
			break;
		}
	memmove(c->order + at + 1, c->order + at, (size_t)(n - at));
	c->order[at] = (uint8_t)i;
}

void ff_jffs2_compr_init(struct ff_jffs2_compr *c)
{
	static const int prio[FF_J2C_COUNT] = { 60, 50, 80 };

	memset(c, 0, sizeof(*c));
	c->mode = FF_J2M_PRIORITY;
	/* registered zlib, rtime, lzo, each sorted in as it comes */
	for (int i = 0; i < FF_J2C_COUNT; i++) {
		c->prio[i] = prio[i];
		insert(c, i, i);
	}
	c->disabled[FF_J2C_LZO] = 1;
#ifndef FF_NO_LZO
	lzo_init();
#endif
}

static int find(const char *name, struct ff_err *err)
{
	for (int i = 0; i < FF_J2C_COUNT; i++)
		if (!strcmp(name, compr_names[i]))
			return i;
	return ff_err_set(err, EINVAL, "unknown compressor '%s' (zlib, rtime or lzo)", name);
}

int ff_jffs2_compr_enable(struct ff_jffs2_compr *c, const char *name, int on,
			  struct ff_err *err)
{
	int i = find(name, err);

	if (i < 0)
		return -1;
	if (i == FF_J2C_LZO && on && !ff_comp_has_lzo())
		return ff_comp_no_lzo(err, "compressor lzo");
	c->disabled[i] = !on;
	return 0;
}

int ff_jffs2_compr_priority(struct ff_jffs2_compr *c, const char *name, int prio,
			    struct ff_err *err)
{
	int i = find(name, err), k = 0;

	if (i < 0)
		return -1;
	while (c->order[k] != i)
		k++;
	memmove(c->order + k, c->order + k + 1, (size_t)(FF_J2C_COUNT - 1 - k));
	c->prio[i] = prio;
	insert(c, i, FF_J2C_COUNT - 1);
	return 0;
}

int ff_jffs2_compr_mode(struct ff_jffs2_compr *c, const char *name, struct ff_err *err)
{
	static const char *const modes[] = { "none", "priority", "size", "favourlzo" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(name, modes[i])) {
			c->mode = i;
			return 0;
		}
	return ff_err_set(err, EINVAL,
			  "unknown compression mode '%s' (none, priority, size or favourlzo)", name);
}
