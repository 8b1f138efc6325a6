/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/tags.h"

#include <string.h>

#include "common/endian.h"
#include "yaffs2/ecc.h"

#define EXTRA_HEADER_INFO 0x80000000u
#define EXTRA_SHRINK 0x40000000u
#define EXTRA_SHADOWS 0x20000000u
#define EXTRA_ALL 0xf0000000u
#define EXTRA_TYPE_SHIFT 28
#define EXTRA_TYPE_MASK (0xfu << EXTRA_TYPE_SHIFT)
#define TYPE_HARDLINK 4

void ff_y2_tags_pack(const struct ff_y2_tags *t, uint8_t *buf, int big, int with_ecc)
{
	uint32_t chunk = t->chunk_id, obj = t->obj_id, n = t->n_bytes;

	if (t->chunk_id == 0 && t->has_extra) {
		chunk = EXTRA_HEADER_INFO | (t->extra_parent & ~EXTRA_ALL);
		if (t->extra_shrink)
			chunk |= EXTRA_SHRINK;
		if (t->extra_shadows)
			chunk |= EXTRA_SHADOWS;
		obj = (obj & ~EXTRA_TYPE_MASK) | (t->extra_type << EXTRA_TYPE_SHIFT);
		n = t->extra_value;
	}
	ff_put32(buf, t->seq, big);
	ff_put32(buf + 4, obj, big);
	ff_put32(buf + 8, chunk, big);
	ff_put32(buf + 12, n, big);
	if (with_ecc) {
		struct ff_y2_ecc_other ecc;

		ff_y2_ecc_calc_other(buf, 16, &ecc);
		buf[16] = ecc.col_parity;
		memset(buf + 17, 0xff, 3);
		ff_put32(buf + 20, ecc.line_parity, big);
		ff_put32(buf + 24, ecc.line_parity_prime, big);
	}
}

static int all_ff(const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (p[i] != 0xff)
			return 0;
	return 1;
}

static enum ff_y2_tags_result check_ecc(uint8_t *buf, int big)
{
	struct ff_y2_ecc_other stored, computed;
	int r;

	stored.col_parity = buf[16];
	stored.line_parity = ff_get32(buf + 20, big);
	stored.line_parity_prime = ff_get32(buf + 24, big);
	ff_y2_ecc_calc_other(buf, 16, &computed);
	r = ff_y2_ecc_correct_other(buf, 16, &stored, &computed);
	if (r < 0)
		return FF_Y2_TAGS_UNFIXED;
	return r ? FF_Y2_TAGS_FIXED : FF_Y2_TAGS_OK;
}

enum ff_y2_tags_result ff_y2_tags_unpack(uint8_t *buf, int big, int with_ecc,
					 struct ff_y2_tags *t)
{
	enum ff_y2_tags_result res = FF_Y2_TAGS_OK;

	memset(t, 0, sizeof(*t));
	if (all_ff(buf, 16))
		return FF_Y2_TAGS_ERASED;
	if (with_ecc)
		res = check_ecc(buf, big);
	t->seq = ff_get32(buf, big);
	t->obj_id = ff_get32(buf + 4, big);
	t->chunk_id = ff_get32(buf + 8, big);
	t->n_bytes = ff_get32(buf + 12, big);
	if (t->chunk_id & EXTRA_HEADER_INFO) {
		t->has_extra = 1;
		t->extra_parent = t->chunk_id & ~EXTRA_ALL;
		t->extra_shrink = !!(t->chunk_id & EXTRA_SHRINK);
		t->extra_shadows = !!(t->chunk_id & EXTRA_SHADOWS);
		t->extra_type = t->obj_id >> EXTRA_TYPE_SHIFT;
		t->obj_id &= ~EXTRA_TYPE_MASK;
		t->extra_value = t->n_bytes;
		t->chunk_id = 0;
		t->n_bytes = 0;
	}
	return res;
}
