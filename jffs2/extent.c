/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* How far a JFFS2 image runs, for the probe: JFFS2 stores no size, and a
 * firmware blob holds other images after it.  The walk follows what the
 * kernel's scan would take as the file system: nodes with a sound header
 * one after another, and runs of erased flash (0xFF) between them, where
 * the rest of an erase block was never written.  It ends at the first
 * bytes that are neither; a run of 0xFF at the end belongs to the image
 * (mkfs.jffs2 -p pads the last erase block with it). */
#include "jffs2/extent.h"

#include <string.h>

#include "jffs2/node.h"

#define RUN_CHUNK 4096

/* The offset of the first byte at or after pos that is not 0xFF, rounded
 * down to 4 (nodes are 4-byte aligned), or end. */
static uint64_t skip_erased(struct ff_bsrc *src, uint64_t pos, uint64_t end)
{
	uint8_t buf[RUN_CHUNK];

	while (pos < end) {
		size_t want = end - pos < RUN_CHUNK ? (size_t)(end - pos) : RUN_CHUNK;
		ssize_t n = ff_bsrc_pread(src, buf, want, pos);

		if (n <= 0)
			return end;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != 0xff)
				return (pos + (uint64_t)i) & ~(uint64_t)3;
		pos += (uint64_t)n;
	}
	return end;
}

/* Headers come from a buffer refilled WALK_CHUNK bytes at a time: a
 * read per header was 44,000 system calls for a 64 MB image. */
#define WALK_CHUNK 16384

struct walk {
	struct ff_bsrc *src;
	uint64_t at;
	size_t n;
	uint8_t buf[WALK_CHUNK];
};

/* The J2_HDR_SIZE bytes at pos, or NULL when they cannot be read. */
static const uint8_t *header_at(struct walk *w, uint64_t pos, uint64_t end)
{
	if (pos < w->at || pos + J2_HDR_SIZE > w->at + w->n) {
		size_t want = end - pos < WALK_CHUNK ? (size_t)(end - pos) : WALK_CHUNK;
		ssize_t n = ff_bsrc_pread(w->src, w->buf, want, pos);

		w->n = 0;
		if (n < (ssize_t)J2_HDR_SIZE)
			return NULL;
		w->at = pos;
		w->n = (size_t)n;
	}
	return w->buf + (pos - w->at);
}

uint64_t j2_extent(struct ff_bsrc *src, uint64_t off, int big)
{
	uint64_t pos = off, end = src->size, last = off;
	struct walk w = { .src = src };
	const uint8_t *b;
	struct j2_hdr h;

	while (end - pos >= J2_HDR_SIZE) {
		if (!(b = header_at(&w, pos, end)))
			break;
		if (j2_hdr_decode(b, big, &h) && h.totlen >= J2_HDR_SIZE && h.totlen <= end - pos) {
			pos += ((uint64_t)h.totlen + 3) & ~(uint64_t)3;
			last = pos < end ? pos : end;
			continue;
		}
		if (memcmp(b, "\xff\xff\xff\xff", 4))
			break;
		pos = skip_erased(src, pos, end);
		if (pos <= last) /* a non-0xFF byte inside the first word */
			break;
		last = pos;
	}
	return last > off ? last : end;
}
