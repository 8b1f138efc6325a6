/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A LEB read node by node from an offset, as the kernel's scan reads a log
 * or journal LEB: nodes sit at 8-byte boundaries; padding is a padding
 * node (its pad_len bytes follow it) or up to 28 bytes of 0xCE; a magic of
 * all ones is erased flash, where the nodes end.  Anything else stops the
 * scan as corrupt, with the place and the reason kept for the caller (the
 * journal replay decides whether it is a power cut or damage). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

static uint32_t align8(uint32_t v)
{
	return (v + 7u) & ~7u;
}

static int add_node(struct ubifs_sleb *s, const struct ubifs_ch *ch, uint32_t offs)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct ubifs_snode *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct ubifs_snode){ *ch, offs, s->buf + offs };
	return 0;
}

/* Padding bytes: a whole number of 8-byte words of 0xCE, at most a
 * padding node's size; returns their count, 0 when not padding. */
static uint32_t pad_bytes(const uint8_t *p, uint32_t len)
{
	uint32_t n = 0, max = len < UBIFS_PAD_NODE_SZ ? len : UBIFS_PAD_NODE_SZ;

	while (n < max && p[n] == UBIFS_PAD_BYTE)
		n++;
	return n % 8 ? 0 : n;
}

static int corrupt(struct ubifs_sleb *s, uint32_t offs, const char *why)
{
	s->end = UBIFS_SCAN_CORRUPT;
	s->endpt = offs;
	snprintf(s->why, sizeof(s->why), "%s", why);
	return 0;
}

/* One step at offs: the bytes it covers (0 = stop). */
static uint32_t step(struct ubifs_fs *u, struct ubifs_sleb *s, uint32_t offs, int *err)
{
	const uint8_t *p = s->buf + offs;
	uint32_t left = u->sb.leb_size - offs, pad;
	struct ubifs_ch ch;
	char why[160];

	if (ff_get_le32(p) == 0xffffffffu) {
		s->end = UBIFS_SCAN_EMPTY;
		s->endpt = offs;
		return 0;
	}
	if (ff_get_le32(p) != UBIFS_MAGIC) {
		if ((pad = pad_bytes(p, left)) != 0)
			return pad;
		return corrupt(s, offs, "neither a node nor padding"), 0;
	}
	if (ubifs_node_check(u, p, left, offs, &ch, why, sizeof(why)))
		return corrupt(s, offs, why), 0;
	if (ch.type == UBIFS_PAD_NODE) {
		uint32_t plen = ff_get_le32(p + PAD_LEN);

		if ((uint64_t)offs + ch.len + plen > u->sb.leb_size || (ch.len + plen) % 8)
			return corrupt(s, offs, "bad padding node"), 0;
		return ch.len + plen;
	}
	if ((*err = add_node(s, &ch, offs)) < 0)
		return 0;
	return align8(ch.len);
}

/* Erased space starts at a min. I/O boundary (the write-buffer pads to
 * one) and is erased to the end. */
static void check_empty(struct ubifs_fs *u, struct ubifs_sleb *s)
{
	char why[96];

	if (s->endpt % u->sb.min_io) {
		snprintf(why, sizeof(why), "nodes end at %u, not a min. I/O boundary (%u)",
			 s->endpt, u->sb.min_io);
		corrupt(s, s->endpt, why);
		return;
	}
	for (uint32_t i = s->endpt; i < u->sb.leb_size; i++)
		if (s->buf[i] != 0xff) {
			snprintf(why, sizeof(why), "erased space from %u holds data at %u",
				 s->endpt, i);
			corrupt(s, s->endpt, why);
			return;
		}
}

int ubifs_scan(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, struct ubifs_sleb *s)
{
	int err = 0;

	memset(s, 0, sizeof(*s));
	if (offs > u->sb.leb_size || offs % 8)
		return -EINVAL;
	s->buf = malloc(u->sb.leb_size);
	if (!s->buf)
		return -ENOMEM;
	if ((err = ubifs_leb_read(u, lnum, 0, s->buf, u->sb.leb_size)) < 0)
		return err;
	s->end = UBIFS_SCAN_FULL;
	s->endpt = u->sb.leb_size;
	while (u->sb.leb_size - offs >= 8) {
		uint32_t adv = step(u, s, offs, &err);

		if (err)
			return err;
		if (!adv)
			break;
		offs += adv;
	}
	if (s->end == UBIFS_SCAN_FULL)
		s->endpt = offs;
	if (s->end == UBIFS_SCAN_EMPTY)
		check_empty(u, s);
	return 0;
}

void ubifs_sleb_free(struct ubifs_sleb *s)
{
	free(s->buf);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
