/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A compressed file's map: the 8-byte map header (an inline tail's size,
 * advice bits, algorithm, lcluster size = block size), then one index per
 * lcluster (one block of decompressed data), 8-aligned after the inode
 * and its xattrs.  The lcluster where an extent starts is its HEAD (or
 * PLAIN, stored as is) with the offset inside it and the pcluster's
 * block; the others are NONHEAD with the distance back to their head and
 * on to the next one.  With big pclusters the first NONHEAD after a
 * compressed head carries its block count (the kernel looks there).  An
 * extent always ends in a later lcluster than it starts (the compressor
 * keeps only extents that save a block; plain ones are a block long, but
 * the file's last, which may end in the next lcluster: eof_head), so no
 * lcluster has two heads.
 *
 * Full indexes (COMPRESSED_FULL, -E legacy-compress): 8 reserved bytes,
 * then 8 bytes per lcluster.  Compact indexes (COMPRESSED_COMPACT, the
 * default): packs that end in a le32 base block, holding 2 entries of 16
 * bits (4 bytes each) or 16 of 14 bits (2 bytes each, for lclusters of
 * 4 KiB or less); 4-byte packs up to a 32-byte boundary, 2-byte packs
 * while 16 entries remain, 4-byte packs after.  An entry is its value
 * (head: offset; nonhead: distance back, or on to the next head for a
 * pack's last entry) with the type above it; a head's block is the base
 * plus the blocks of the pclusters counted before it in the pack (see
 * pack_nblk), so the base is found from the pack's first head and every
 * other head is checked against it. */
#include <errno.h>
#include <stdlib.h>

#include "common/endian.h"
#include "erofs/compressor.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

/* One lcluster, in both encodings' terms. */
struct lci {
	uint8_t type;
	uint16_t ofs;              /* head: offset of the extent in the lcluster */
	uint32_t d0, d1;           /* nonhead: back to the head, on to the next */
	uint8_t partial;           /* head: PARTIAL_REF (full indexes only) */
	uint32_t blk;              /* head: pcluster block */
	uint32_t cblks;            /* head: pcluster blocks; first nonhead of a big
				      pcluster: the count it carries (else 0) */
	uint8_t eof;               /* the head at the end of the file (eof_head) */
};

static uint64_t lcount(const struct ew *w, uint64_t size)
{
	return (size + w->blksz - 1) >> w->blkbits;
}

/* Where the indexes start, from the inode's start (32-aligned). */
static uint32_t index_base(const struct ew_ino *e)
{
	uint32_t isz = e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE;

	return (uint32_t)ew_align(isz + e->xattr_len, 8) + ER_MAP_HEADER_SIZE;
}

/* Compact layout of n entries from ebase: counts of the leading 4-byte
 * entries, the 2-byte ones, the trailing 4-byte ones. */
static void compact_split(const struct ew *w, uint32_t ebase, uint64_t n, uint64_t *init,
			  uint64_t *c2b, uint64_t *rest)
{
	uint64_t i = ((32 - ebase % 32) / 4) & 7;

	*c2b = 0;
	if (w->blkbits <= 12 && i < n)
		*c2b = (n - i) / 16 * 16;
	*init = i < n ? i : n;
	*rest = n - *init - *c2b;
}

int ew_zmap_compact_ok(const struct ew *w)
{
	return !w->o->full_indexes && w->blkbits <= 14;
}

uint32_t ew_zmap_len(const struct ew *w, const struct ew_ino *e)
{
	uint64_t n = lcount(w, e->size), init, c2b, rest;

	if (e->layout == ER_COMPRESSED_FULL)
		return (uint32_t)(ER_MAP_HEADER_SIZE + 8 + n * ER_LCLUSTER_INDEX_SIZE);
	compact_split(w, index_base(e), n, &init, &c2b, &rest);
	/* the 4-byte packs hold two entries: an odd count leaves one spare */
	return (uint32_t)(ER_MAP_HEADER_SIZE + ew_align(init, 2) * 4 + c2b * 2 +
			  ew_align(rest, 2) * 4);
}

static void lci_fill(const struct ew *w, struct lci *lc, uint64_t nlc, const struct ew_extent *x,
		     size_t n, uint32_t blk, int bigpcl)
{
	for (size_t k = 0; k < n; k++) {
		uint64_t head = x[k].lstart >> w->blkbits;
		uint64_t next = k + 1 < n ? x[k + 1].lstart >> w->blkbits : nlc;

		lc[head].type = x[k].plain ? ER_LC_PLAIN : ER_LC_HEAD1;
		lc[head].ofs = (uint16_t)(x[k].lstart & (w->blksz - 1));
		/* a dedupe reference names its pcluster; the file's own
		 * pclusters follow each other from its first block */
		lc[head].blk = x[k].ref ? x[k].blk : blk;
		lc[head].partial = x[k].partial;
		lc[head].cblks = x[k].cblks;
		for (uint64_t lcn = head + 1; lcn < next; lcn++) {
			lc[lcn].type = ER_LC_NONHEAD;
			lc[lcn].d0 = (uint32_t)(lcn - head);
			lc[lcn].d1 = (uint32_t)(next - lcn);
			if (lcn == head + 1 && bigpcl && !x[k].plain)
				lc[lcn].cblks = x[k].cblks;
		}
		if (!x[k].ref)
			blk += x[k].cblks;
	}
}

/* A file whose last extent is plain (stored as is, in its own block or
 * inline with ztailpacking) and runs from one lcluster into the last:
 * the last gets a PLAIN head at the end of the file, as mkfs.erofs
 * writes it.  That head is where the kernel ends the plain extent; through
 * a NONHEAD it would run to the end of that lcluster, past the bytes
 * stored, and the kernel refuses it (EFSCORRUPTED: a plain extent longer
 * than its data).  The head is never mapped (every offset of the file is
 * before it), so its block is none. */
static void eof_head(const struct ew *w, const struct ew_ino *e, struct lci *lc, uint64_t nlc,
		     const struct ew_extent *x, size_t n)
{
	uint32_t ofs = (uint32_t)(e->size & (w->blksz - 1));

	if (!n || !x[n - 1].plain || x[n - 1].frag || !ofs || lc[nlc - 1].type != ER_LC_NONHEAD)
		return;
	lc[nlc - 1] = (struct lci){ .type = ER_LC_PLAIN, .ofs = (uint16_t)ofs, .eof = 1 };
}

static uint16_t clip16(uint32_t v)
{
	return (uint16_t)(v > 0xffff ? 0xffff : v);
}

static void encode_full(const struct ew *w, uint8_t *idx, const struct lci *lc, uint64_t nlc)
{
	(void)w;
	for (uint64_t i = 0; i < nlc; i++, idx += ER_LCLUSTER_INDEX_SIZE) {
		ff_put_le16(idx, (uint16_t)(lc[i].type | (lc[i].partial ? ER_LI_PARTIAL_REF : 0)));
		if (lc[i].type != ER_LC_NONHEAD) {
			ff_put_le16(idx + 2, lc[i].ofs);
			ff_put_le32(idx + 4, lc[i].blk);
			continue;
		}
		ff_put_le16(idx + 4, lc[i].cblks ? (uint16_t)(ER_LI_D0_CBLKCNT | lc[i].cblks)
						 : clip16(lc[i].d0));
		ff_put_le16(idx + 6, clip16(lc[i].d1));
	}
}

/* A compact entry's value: what the kernel decodes from it. */
static uint32_t compact_value(const struct lci *l, int last)
{
	if (l->type != ER_LC_NONHEAD)
		return l->ofs;
	if (l->cblks)
		return ER_LI_D0_CBLKCNT | l->cblks;
	if (last)
		return l->d1 < ER_LI_D0_CBLKCNT ? l->d1 : ER_LI_D0_CBLKCNT - 1;
	return l->d0;
}

/* The blocks the kernel counts in front of entry i of a pack when it
 * finds a head's block: without big pclusters one for each head (and one
 * more); with them each pcluster's count from its first nonhead, or one
 * for a head with no nonhead.  -1: the walk would fail. */
static int64_t pack_nblk(const struct lci *p, int i, int big)
{
	int64_t nblk = big ? 0 : 1;

	while (i > 0) {
		const struct lci *l = &p[--i];
		uint32_t v = compact_value(l, 0);

		if (!big) {
			if (l->type == ER_LC_NONHEAD)
				i -= (int)v;
			nblk += i >= 0;
		} else if (l->type != ER_LC_NONHEAD) {
			nblk++;
		} else if (v & ER_LI_D0_CBLKCNT) {
			i--;
			nblk += v & ~ER_LI_D0_CBLKCNT;
		} else if (v <= 1) {
			return -1;
		} else {
			i -= (int)v - 2;
		}
	}
	return nblk;
}

static void put_bits(uint8_t *out, unsigned pos, uint32_t v)
{
	for (unsigned b = 0; b < 16; b++)
		if (v >> b & 1)
			out[(pos + b) / 8] |= (uint8_t)(1u << ((pos + b) % 8));
}

/* One pack of vcnt entries (p may run past the file: spare entries stay
 * zero); *base carries the last base on for packs without a head. */
static int encode_pack(const struct ew *w, uint8_t *out, const struct lci *p, unsigned vcnt,
		       unsigned have, int big, uint32_t *base)
{
	unsigned bytes = vcnt == 2 ? 8 : 32, encodebits = ((bytes - 4) * 8) / vcnt;
	unsigned lobits = w->blkbits > 12 ? w->blkbits : 12;
	int found = 0;

	for (unsigned i = 0; i < have; i++) {
		int64_t nblk;

		put_bits(out, encodebits * i, compact_value(&p[i], i + 1 == vcnt) |
					      (uint32_t)p[i].type << lobits);
		if (p[i].type == ER_LC_NONHEAD || p[i].eof)
			continue;
		if ((nblk = pack_nblk(p, (int)i, big)) < 0)
			return -1;
		if (!found)
			*base = p[i].blk - (uint32_t)nblk;
		else if (*base + (uint64_t)nblk != p[i].blk)
			return -1;
		found = 1;
	}
	ff_put_le32(out + bytes - 4, *base);
	return 0;
}

static int encode_compact(const struct ew *w, const struct ew_ino *e, uint8_t *idx,
			  const struct lci *lc, uint64_t nlc, int big)
{
	uint64_t init, c2b, rest, at = 0;
	uint32_t base = e->blkaddr;

	compact_split(w, index_base(e), nlc, &init, &c2b, &rest);
	(void)rest;
	while (at < nlc) {
		unsigned vcnt = at >= init && at < init + c2b ? 16 : 2;
		uint64_t have = nlc - at < vcnt ? nlc - at : vcnt;

		if (encode_pack(w, idx, lc + at, vcnt, (unsigned)have, big, &base))
			return -1;
		idx += vcnt == 2 ? 8 : 32;
		at += vcnt;
	}
	return 0;
}

/* A whole fragment: the header only, its offset in the low 63 bits of
 * a le64 whose top bit (h_clusterbits' bit 7) says so. */
static int encode_whole_fragment(struct ew_ino *e, struct ff_err *err)
{
	uint8_t *b = calloc(1, e->zmeta_len);

	if (!b)
		return ff_err_set(err, ENOMEM, "compression map: out of memory");
	ff_put_le64(b, e->fragoff | 1ull << 63);
	e->zmeta = b;
	return 0;
}

/* A tail fragment: its offset where an inline tail's size would be; past
 * 4 GiB its high half is the tail head's block (full indexes only). */
static int fragment_tail(const struct ew *w, struct ew_ino *e, uint8_t *b, struct lci *lc,
			 const struct ew_extent *x, size_t n, int compact, struct ff_err *err)
{
	if (!n || !x[n - 1].frag)
		return 0;
	if (compact && e->fragoff >> 32)
		return ff_err_set(err, EFBIG, "inode %llu: fragment at %llu, past the 4 GiB "
				  "compact indexes reach (-E legacy-compress)",
				  (unsigned long long)e->nid, (unsigned long long)e->fragoff);
	ff_put_le32(b, (uint32_t)e->fragoff);
	ff_put_le16(b + 4, ff_get_le16(b + 4) | ER_ADVISE_FRAGMENT_PCLUSTER);
	if (!compact)
		lc[x[n - 1].lstart >> w->blkbits].blk = (uint32_t)(e->fragoff >> 32);
	return 0;
}

int ew_zmap_encode(const struct ew *w, struct ew_ino *e, const struct ew_extent *x, size_t n,
		   struct ff_err *err)
{
	uint64_t nlc = lcount(w, e->size);
	int big = w->o->pcluster > w->blksz, compact = e->layout == ER_COMPRESSED_COMPACT;
	uint8_t *b;
	struct lci *lc;
	uint16_t advise = 0;
	int r = 0;

	if (e->frag == 2)
		return encode_whole_fragment(e, err);
	for (size_t k = 0; compact && k < n; k++)
		if (x[k].ref || x[k].partial)
			return ff_err_set(err, EIO, "inode %llu: a dedupe extent with compact "
					  "indexes (a bug)", (unsigned long long)e->nid);
	b = calloc(1, e->zmeta_len);
	lc = calloc(nlc + 16, sizeof(*lc));
	if (!b || !lc) {
		free(b);
		free(lc);
		return ff_err_set(err, ENOMEM, "compression map: out of memory");
	}
	if (big)
		advise |= ER_ADVISE_BIG_PCLUSTER_1 | (compact ? ER_ADVISE_BIG_PCLUSTER_2 : 0);
	if (compact && w->blkbits <= 12)
		advise |= ER_ADVISE_COMPACTED_2B;
	if (e->inline_len)
		advise |= ER_ADVISE_INLINE_PCLUSTER;
	ff_put_le16(b + 2, (uint16_t)e->inline_len);
	ff_put_le16(b + 4, advise);
	b[6] = (uint8_t)ew_codec_alg(w->o->codec);
	b[7] = 0; /* lcluster = one block */
	lci_fill(w, lc, nlc, x, n, e->blkaddr, big);
	eof_head(w, e, lc, nlc, x, n);
	if (fragment_tail(w, e, b, lc, x, n, compact, err)) {
		free(b);
		free(lc);
		return -1;
	}
	if (compact)
		r = encode_compact(w, e, b + ER_MAP_HEADER_SIZE, lc, nlc, big);
	else
		encode_full(w, b + ER_MAP_HEADER_SIZE + 8, lc, nlc);
	free(lc);
	if (r) {
		free(b);
		return ff_err_set(err, EIO, "inode %llu: compact indexes cannot encode its "
				  "extents (a bug)", (unsigned long long)e->nid);
	}
	e->zmeta = b;
	return 0;
}
