/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The common node header every UBIFS node starts with, the checks the
 * kernel makes of a node before trusting it (magic, type, a length fit for
 * the type, inside its LEB, CRC), and reading a node at a known place. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/ubifs.h"

/* The kernel seeds crc32_le with 0xffffffff and does not invert the result:
 * zlib's crc32 inverts both, so one more inversion gives the kernel's.
 * (ISA-L's is faster, but Debian ships no static ISA-L.) */
uint32_t ubifs_crc(const uint8_t *p, size_t n)
{
	uint32_t c = 0;

	while (n) {
		uint64_t step = n > (1u << 30) ? (1u << 30) : n;

		c = (uint32_t)crc32(c, p, (uInt)step);
		p += step;
		n -= step;
	}
	return c ^ 0xffffffffu;
}

void ubifs_ch_decode(const uint8_t *p, struct ubifs_ch *ch)
{
	ch->crc = ff_get_le32(p + CH_CRC);
	ch->sqnum = ff_get_le64(p + CH_SQNUM);
	ch->len = ff_get_le32(p + CH_LEN);
	ch->type = p[CH_TYPE];
	ch->group = p[CH_GROUP];
}

/* The smallest and largest length of each node type (0 max: fixed). */
static void len_range(const struct ubifs_fs *u, unsigned type, uint32_t *min, uint32_t *max)
{
	static const uint32_t fixed[UBIFS_NODE_TYPES] = {
		[UBIFS_TRUN_NODE] = UBIFS_TRUN_NODE_SZ, [UBIFS_PAD_NODE] = UBIFS_PAD_NODE_SZ,
		[UBIFS_SB_NODE] = UBIFS_SB_NODE_SZ, [UBIFS_MST_NODE] = UBIFS_MST_NODE_SZ,
		[UBIFS_REF_NODE] = UBIFS_REF_NODE_SZ, [UBIFS_CS_NODE] = UBIFS_CS_NODE_SZ,
	};

	*min = fixed[type];
	*max = fixed[type];
	switch (type) {
	case UBIFS_INO_NODE:
		*min = UBIFS_INO_NODE_SZ;
		*max = UBIFS_INO_NODE_SZ + UBIFS_MAX_INO_DATA;
		break;
	case UBIFS_DATA_NODE:
		*min = UBIFS_DATA_NODE_SZ;
		*max = UBIFS_DATA_NODE_SZ + UBIFS_BLOCK_SIZE;
		break;
	case UBIFS_DENT_NODE:
	case UBIFS_XENT_NODE:
		*min = UBIFS_DENT_NODE_SZ;
		*max = UBIFS_DENT_NODE_SZ + UBIFS_MAX_NLEN + 1;
		break;
	case UBIFS_IDX_NODE:
		*min = UBIFS_IDX_NODE_SZ + UBIFS_BRANCH_SZ + UBIFS_SK_LEN;
		*max = u ? u->max_znode_len : UBIFS_SB_NODE_SZ;
		break;
	case UBIFS_ORPH_NODE:
		*min = UBIFS_ORPH_NODE_SZ + 8;
		*max = u ? u->sb.leb_size : UBIFS_SB_NODE_SZ;
		break;
	case UBIFS_AUTH_NODE:
		*min = UBIFS_CH_SZ;
		*max = UBIFS_CH_SZ + 64;
		break;
	}
}

/* Everything ubifs_node_check checks but the CRC. */
static int check_head(const struct ubifs_fs *u, const uint8_t *p, size_t avail, uint32_t offs,
		      struct ubifs_ch *ch, char *why, size_t cap)
{
	uint32_t min, max;

	if (avail < UBIFS_CH_SZ)
		return snprintf(why, cap, "node header cut short (%zu bytes)", avail), -1;
	if (ff_get_le32(p) != UBIFS_MAGIC)
		return snprintf(why, cap, "bad magic 0x%08x", ff_get_le32(p)), -1;
	ubifs_ch_decode(p, ch);
	if (ch->type >= UBIFS_NODE_TYPES)
		return snprintf(why, cap, "unknown node type %u", ch->type), -1;
	len_range(u, ch->type, &min, &max);
	if (ch->len < min || ch->len > max)
		return snprintf(why, cap, "node type %u: length %u outside %u..%u", ch->type,
				ch->len, min, max), -1;
	if (u && (uint64_t)offs + ch->len > u->sb.leb_size)
		return snprintf(why, cap, "node of %u bytes runs past the LEB end (%u)", ch->len,
				u->sb.leb_size), -1;
	if (ch->len > avail)
		return snprintf(why, cap, "node of %u bytes cut short (%zu bytes)", ch->len,
				avail), -1;
	return 0;
}

int ubifs_node_check(const struct ubifs_fs *u, const uint8_t *p, size_t avail, uint32_t offs,
		     struct ubifs_ch *ch, char *why, size_t cap)
{
	uint32_t crc;

	if (check_head(u, p, avail, offs, ch, why, cap) < 0)
		return -1;
	crc = ubifs_crc(p + 8, ch->len - 8);
	if (crc != ch->crc)
		return snprintf(why, cap, "bad CRC 0x%08x, computed 0x%08x", ch->crc, crc), -1;
	return 0;
}

int ubifs_leb_read_raw(struct ubifs_fs *u, uint32_t lnum, uint32_t offs, void *buf, size_t len)
{
	uint64_t at = (uint64_t)lnum * u->sb.leb_size + offs;
	ssize_t got;

	if (lnum >= u->sb.leb_cnt || offs > u->sb.leb_size || len > u->sb.leb_size - offs)
		return -EINVAL;
	if (at >= u->src->size) {
		/* an unmapped LEB past the source's end reads as erased flash */
		memset(buf, 0xff, len);
		return 0;
	}
	got = ff_bsrc_pread(u->src, buf, len, at);
	if (got < 0)
		return (int)got;
	if ((size_t)got < len)
		memset((uint8_t *)buf + got, 0xff, len - (size_t)got);
	return 0;
}

static int verify(struct ubifs_fs *u, const struct ubifs_loc *loc, int want, const uint8_t *buf,
		  const char *what, int crc);

/* crc 0: the node's CRC is not checked. */
static int read_node(struct ubifs_fs *u, const struct ubifs_loc *loc, int want, uint8_t *buf,
		     size_t cap, const char *what, int crc)
{
	int ret;

	if (loc->lnum >= u->sb.leb_cnt || loc->offs > u->sb.leb_size ||
	    loc->len > u->sb.leb_size - loc->offs || loc->len > cap || loc->len < UBIFS_CH_SZ) {
		ff_fs_log(&u->fs, "%s: node at LEB %u:%u (%u bytes) outside the volume (%u LEBs "
			  "of %u bytes)", what, loc->lnum, loc->offs, loc->len, u->sb.leb_cnt,
			  u->sb.leb_size);
		return -EIO;
	}
	/* an inode lies among its file's data: read alone unless a window
	 * has it; data forwards; the rest (entries, index) clustered */
	if (want == UBIFS_INO_NODE)
		ret = ubifs_leb_read_near(u, loc->lnum, loc->offs, buf, loc->len);
	else if (want == UBIFS_DATA_NODE)
		ret = ubifs_leb_read_ahead(u, loc->lnum, loc->offs, buf, loc->len);
	else
		ret = ubifs_leb_read(u, loc->lnum, loc->offs, buf, loc->len);
	if (ret < 0) {
		ff_fs_log(&u->fs, "%s: read of LEB %u:%u failed", what, loc->lnum, loc->offs);
		return -EIO;
	}
	return verify(u, loc, want, buf, what, crc);
}

int ubifs_read_node(struct ubifs_fs *u, const struct ubifs_loc *loc, int want, uint8_t *buf,
		    size_t cap, const char *what)
{
	return read_node(u, loc, want, buf, cap, what, 1);
}

int ubifs_read_data_node(struct ubifs_fs *u, const struct ubifs_loc *loc, uint8_t *buf,
			 size_t cap)
{
	return read_node(u, loc, UBIFS_DATA_NODE, buf, cap, "data", 0);
}

/* want < 0: any type; crc 0: the header's CRC is not checked. */
static int verify(struct ubifs_fs *u, const struct ubifs_loc *loc, int want, const uint8_t *buf,
		  const char *what, int crc)
{
	struct ubifs_ch ch;
	char why[160];
	int ret;

	why[0] = 0;
	ret = crc ? ubifs_node_check(u, buf, loc->len, loc->offs, &ch, why, sizeof(why))
		  : check_head(u, buf, loc->len, loc->offs, &ch, why, sizeof(why));
	if (ret == 0) {
		if (want >= 0 && ch.type != want)
			snprintf(why, sizeof(why), "node type %u where type %d was expected",
				 ch.type, want);
		else if (ch.len != loc->len)
			snprintf(why, sizeof(why), "node of %u bytes where the index says %u",
				 ch.len, loc->len);
	}
	if (why[0]) {
		ff_fs_log(&u->fs, "%s: node at LEB %u:%u: %s", what, loc->lnum, loc->offs, why);
		return -EIO;
	}
	return 0;
}

int ubifs_node_verify(struct ubifs_fs *u, const struct ubifs_loc *loc, int want,
		      const uint8_t *buf, const char *what)
{
	return verify(u, loc, want, buf, what, 1);
}

/* As the kernel mounts by default (no chk_data_crc): a data node's
 * header, type and length are checked, not its CRC.  The other nodes'
 * CRCs are always checked, and `check` checks every node's. */
int ubifs_data_node_verify(struct ubifs_fs *u, const struct ubifs_loc *loc, const uint8_t *buf)
{
	return verify(u, loc, UBIFS_DATA_NODE, buf, "data", 0);
}

void ubifs_damaged(struct ubifs_fs *u, const struct ubifs_loc *loc, const char *what)
{
	uint64_t id = (uint64_t)loc->lnum << 32 | loc->offs;

	pthread_mutex_lock(&u->lock);
	if (!ff_hmap_get(&u->damaged, id) && ff_hmap_put(&u->damaged, id, (void *)1) == 0)
		ff_problem_add(&u->problems, "%s at LEB %u:%u is unreadable: left out", what,
			       loc->lnum, loc->offs);
	pthread_mutex_unlock(&u->lock);
}
