/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inodes, compact (32 bytes) and extended (64), then the xattr body and
 * whatever the layout stores behind them (a flat file's tail, a
 * compressed file's map header and indexes).  A compact inode has no time
 * of its own: older kernels give it the superblock's build time, so it is
 * used only when the mtime is that time (as -T makes every mtime) and the
 * owner, link count and size fit its 16- and 32-bit fields. */
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

int ew_inode_pick_form(const struct ew *w, const struct ew_ino *e)
{
	const struct ff_node *n = e->n;
	int fits = n->uid <= 0xffff && n->gid <= 0xffff && ff_node_nlink(n) <= 0xffff &&
		   e->size <= 0xffffffffu;

	if (w->o->inode_form == FF_EROFS_INODE_EXTENDED || !fits)
		return 1;
	if (w->o->inode_form == FF_EROFS_INODE_COMPACT)
		return 0;
	return n->mtime != w->o->build_time;
}

/* The 32-bit union: a device number, a block address or a block count. */
static uint32_t inode_union(const struct ew *w, const struct ew_ino *e)
{
	const struct ff_node *n = e->n;

	if (S_ISCHR(n->mode) || S_ISBLK(n->mode))
		return (n->rdev_minor & 0xff) | ((n->rdev_major & 0xfff) << 8) |
		       ((n->rdev_minor & ~0xffu) << 12);
	if (e->layout == ER_COMPRESSED_FULL || e->layout == ER_COMPRESSED_COMPACT)
		return e->nblocks;
	if (e->layout == ER_CHUNK_BASED) /* the chunk format: log2(chunk / block) */
		return (uint32_t)__builtin_ctz(w->o->chunksize) - w->blkbits;
	return e->nblocks ? e->blkaddr : 0;
}

/* i_ino: 1.. in pre-order, the packed inode last. */
static uint32_t ino_number(const struct ew *w, const struct ew_ino *e)
{
	return e == &w->packed ? w->n_inos + 1 : (uint32_t)(e - w->inos) + 1;
}

static uint16_t xattr_icount(const struct ew_ino *e)
{
	return e->xattr_len ? (uint16_t)((e->xattr_len - ER_XATTR_IBODY_HEADER) / 4 + 1) : 0;
}

static void encode_compact(const struct ew *w, const struct ew_ino *e, uint8_t *b)
{
	const struct ff_node *n = e->n;

	ff_put_le16(b, (uint16_t)(e->layout << ER_I_DATALAYOUT_SHIFT));
	ff_put_le16(b + 2, xattr_icount(e));
	ff_put_le16(b + 4, (uint16_t)n->mode);
	ff_put_le16(b + 6, (uint16_t)ff_node_nlink(n));
	ff_put_le32(b + 8, (uint32_t)e->size);
	ff_put_le32(b + 16, inode_union(w, e));
	ff_put_le32(b + 20, ino_number(w, e));
	ff_put_le16(b + 24, (uint16_t)n->uid);
	ff_put_le16(b + 26, (uint16_t)n->gid);
}

static void encode_extended(const struct ew *w, const struct ew_ino *e, uint8_t *b)
{
	const struct ff_node *n = e->n;

	ff_put_le16(b, (uint16_t)(ER_I_VERSION_MASK | e->layout << ER_I_DATALAYOUT_SHIFT));
	ff_put_le16(b + 2, xattr_icount(e));
	ff_put_le16(b + 4, (uint16_t)n->mode);
	ff_put_le64(b + 8, e->size);
	ff_put_le32(b + 16, inode_union(w, e));
	ff_put_le32(b + 20, ino_number(w, e));
	ff_put_le32(b + 24, n->uid);
	ff_put_le32(b + 28, n->gid);
	ff_put_le64(b + 32, (uint64_t)n->mtime);
	ff_put_le32(b + 44, ff_node_nlink(n));
}

uint32_t ew_inode_tail_at(const struct ew_ino *e)
{
	uint32_t at = (e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE) + e->xattr_len;

	if (e->zmeta_len)
		at = (uint32_t)ew_align(at, e->layout == ER_CHUNK_BASED ? 4 : 8) + e->zmeta_len;
	return at;
}

/* buf holds e->slot zeroed bytes.  Only a late inode's tail is here
 * (ztail); the others the data pass wrote into the image (tail_out), for
 * the caller to copy from there. */
void ew_inode_encode(const struct ew *w, const struct ew_ino *e, uint8_t *buf)
{
	uint32_t at = e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE;

	if (e->ext)
		encode_extended(w, e, buf);
	else
		encode_compact(w, e, buf);
	if (e->xattr_len)
		memcpy(buf + at, e->xattr, e->xattr_len);
	if (e->zmeta_len)
		memcpy(buf + ew_inode_tail_at(e) - e->zmeta_len, e->zmeta, e->zmeta_len);
	if (e->inline_len && e->ztail)
		memcpy(buf + ew_inode_tail_at(e), e->ztail, e->inline_len);
}
