/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The superblock node (LEB 0): the geometry the kernel checks at mount
 * (sb.c's validate_sb), written as mkfs.ubifs writes it: format 4, one data
 * journal head (the kernel adds its two others), nanosecond timestamps. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

uint32_t uw_super_encode(const struct uw *w, uint8_t *p)
{
	const struct uw_geom *g = &w->g;
	uint32_t flags = 0;

	memset(p, 0, UBIFS_SB_NODE_SZ);
	if (g->big_lpt)
		flags |= UBIFS_FLG_BIGLPT;
	if (w->o->space_fixup)
		flags |= UBIFS_FLG_SPACE_FIXUP;
	p[SB_KEY_HASH] = (uint8_t)w->o->key_hash;
	p[SB_KEY_FMT] = 0; /* simple keys */
	ff_put_le32(p + SB_FLAGS, flags);
	ff_put_le32(p + SB_MIN_IO, g->min_io);
	ff_put_le32(p + SB_LEB_SIZE, g->leb_size);
	ff_put_le32(p + SB_LEB_CNT, w->leb_cnt);
	ff_put_le32(p + SB_MAX_LEB_CNT, g->max_leb_cnt);
	ff_put_le64(p + SB_MAX_BUD_BYTES, g->max_bud_bytes);
	ff_put_le32(p + SB_LOG_LEBS, g->log_lebs);
	ff_put_le32(p + SB_LPT_LEBS, g->lpt_lebs);
	ff_put_le32(p + SB_ORPH_LEBS, g->orph_lebs);
	ff_put_le32(p + SB_JHEAD_CNT, 1);
	ff_put_le32(p + SB_FANOUT, g->fanout);
	ff_put_le32(p + SB_LSAVE_CNT, g->lsave_cnt);
	ff_put_le32(p + SB_FMT_VERSION, 4);
	ff_put_le16(p + SB_DEFAULT_COMPR, (uint16_t)w->o->compr);
	ff_put_le64(p + SB_RP_SIZE, g->rp_size);
	ff_put_le32(p + SB_TIME_GRAN, 1000000000u);
	memcpy(p + SB_UUID, w->st->uuid, 16);
	return UBIFS_SB_NODE_SZ;
}
