/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The superblock node at the start of LEB 0: geometry (LEB and min. I/O
 * sizes, LEB count), the sizes of the log, LPT and orphan areas, the key
 * format and hash, flags and the default compressor.  Checked as the
 * kernel's validate_sb checks it, and also against the byte source. */
#include <errno.h>
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

#define MAX_LEB_SIZE (16u << 20) /* larger than any flash's erase block */

static void decode(const uint8_t *p, struct ubifs_super *sb)
{
	sb->key_hash = p[SB_KEY_HASH];
	sb->key_fmt = p[SB_KEY_FMT];
	sb->flags = ff_get_le32(p + SB_FLAGS);
	sb->min_io = ff_get_le32(p + SB_MIN_IO);
	sb->leb_size = ff_get_le32(p + SB_LEB_SIZE);
	sb->leb_cnt = ff_get_le32(p + SB_LEB_CNT);
	sb->max_leb_cnt = ff_get_le32(p + SB_MAX_LEB_CNT);
	sb->max_bud_bytes = ff_get_le64(p + SB_MAX_BUD_BYTES);
	sb->log_lebs = ff_get_le32(p + SB_LOG_LEBS);
	sb->lpt_lebs = ff_get_le32(p + SB_LPT_LEBS);
	sb->orph_lebs = ff_get_le32(p + SB_ORPH_LEBS);
	sb->jhead_cnt = ff_get_le32(p + SB_JHEAD_CNT);
	sb->fanout = ff_get_le32(p + SB_FANOUT);
	sb->lsave_cnt = ff_get_le32(p + SB_LSAVE_CNT);
	sb->fmt_version = ff_get_le32(p + SB_FMT_VERSION);
	sb->default_compr = ff_get_le16(p + SB_DEFAULT_COMPR);
	sb->rp_uid = ff_get_le32(p + SB_RP_UID);
	sb->rp_gid = ff_get_le32(p + SB_RP_GID);
	sb->rp_size = ff_get_le64(p + SB_RP_SIZE);
	sb->time_gran = ff_get_le32(p + SB_TIME_GRAN);
	memcpy(sb->uuid, p + SB_UUID, 16);
	sb->ro_compat = ff_get_le32(p + SB_RO_COMPAT);
	sb->hash_algo = ff_get_le16(p + SB_HASH_ALGO);
}

static int check_geometry(const struct ubifs_super *sb, struct ff_err *err)
{
	if (sb->leb_size < UBIFS_MIN_LEB_SIZE || sb->leb_size > MAX_LEB_SIZE ||
	    sb->leb_size % 8)
		return ff_err_set(err, EINVAL, "UBIFS superblock: LEB size %u outside %u..%u",
				  sb->leb_size, UBIFS_MIN_LEB_SIZE, MAX_LEB_SIZE);
	if (sb->min_io < 8 || sb->min_io > sb->leb_size || (sb->min_io & (sb->min_io - 1)))
		return ff_err_set(err, EINVAL, "UBIFS superblock: min. I/O size %u is not a "
				  "power of two from 8 to the LEB size %u", sb->min_io,
				  sb->leb_size);
	/* mkfs.ubifs writes only the LEBs it fills; the kernel grows the
	 * count to the volume at the first mount */
	if (sb->leb_cnt > sb->max_leb_cnt)
		return ff_err_set(err, EINVAL, "UBIFS superblock: LEB count %u above the "
				  "maximum %u", sb->leb_cnt, sb->max_leb_cnt);
	if (sb->log_lebs < 2 || sb->lpt_lebs < 2 || sb->orph_lebs < 1 ||
	    (uint64_t)UBIFS_LOG_LNUM + sb->log_lebs + sb->lpt_lebs + sb->orph_lebs + 1 >
		    sb->leb_cnt)
		return ff_err_set(err, EINVAL, "UBIFS superblock: log %u, LPT %u and orphan %u "
				  "LEBs do not fit %u LEBs", sb->log_lebs, sb->lpt_lebs,
				  sb->orph_lebs, sb->leb_cnt);
	return 0;
}

static int check_format(const struct ubifs_super *sb, struct ff_err *err)
{
	if (sb->fmt_version < 1 || sb->fmt_version > 5)
		return ff_err_set(err, EINVAL, "UBIFS superblock: format version %u unknown "
				  "(this reader knows 1 to 5)", sb->fmt_version);
	if (sb->key_fmt != 0 || sb->key_hash > 1)
		return ff_err_set(err, EINVAL, "UBIFS superblock: key format %u, hash %u unknown",
				  sb->key_fmt, sb->key_hash);
	if (sb->fanout < 3 ||
	    sb->fanout > (sb->leb_size - UBIFS_IDX_NODE_SZ) / (UBIFS_BRANCH_SZ + UBIFS_SK_LEN))
		return ff_err_set(err, EINVAL, "UBIFS superblock: fanout %u impossible for LEBs "
				  "of %u bytes", sb->fanout, sb->leb_size);
	if (sb->jhead_cnt < 1 || sb->jhead_cnt > 64)
		return ff_err_set(err, EINVAL, "UBIFS superblock: %u journal heads", sb->jhead_cnt);
	if (sb->default_compr >= UBIFS_COMPR_TYPES)
		return ff_err_set(err, EINVAL, "UBIFS superblock: default compressor %u unknown",
				  sb->default_compr);
	return 0;
}

int ubifs_super_decode(const uint8_t *p, size_t len, uint64_t src_size, struct ubifs_super *sb,
		       struct ff_err *err)
{
	struct ubifs_ch ch;
	char why[160];

	if (ubifs_node_check(NULL, p, len, 0, &ch, why, sizeof(why)))
		return ff_err_set(err, EINVAL, "UBIFS superblock node at offset 0: %s", why);
	if (ch.type != UBIFS_SB_NODE)
		return ff_err_set(err, EINVAL, "UBIFS: node at offset 0 is of type %u, not a "
				  "superblock", ch.type);
	decode(p, sb);
	if (check_geometry(sb, err) || check_format(sb, err))
		return -1;
	if (src_size < (uint64_t)sb->leb_size * (UBIFS_LOG_LNUM + 1))
		return ff_err_set(err, EINVAL, "UBIFS: image of %llu bytes is shorter than its "
				  "first %u LEBs of %u bytes", (unsigned long long)src_size,
				  UBIFS_LOG_LNUM + 1, sb->leb_size);
	return 0;
}
