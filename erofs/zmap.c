/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The compressed layouts' maps: after the inode (and its xattrs), 8-aligned,
 * an 8-byte map header, then one index per logical cluster ("lcluster"):
 * full 8-byte indexes (COMPRESSED_FULL) or packs of 2 or 16 compact
 * indexes of 4 or 2 bytes each (COMPRESSED_COMPACT).  A HEAD lcluster
 * starts a physical cluster ("pcluster") at its clusterofs; NONHEAD ones
 * say how far back the head is (delta[0]) and how far on the next one is
 * (delta[1]); the first NONHEAD of a big pcluster holds its block count.
 * The tail may be inline after the indexes (ztailpacking) or in the
 * packed inode (fragments). */
#include <string.h>

#include "common/endian.h"
#include "erofs/reader.h"

/* What one lookup gathers, as it walks lclusters. */
struct lc {
	const struct er_rd *rd;
	const struct er_inode *ino;
	const struct er_zinfo *z;
	uint64_t lcn;
	unsigned type, headtype;
	uint32_t clusterofs;
	uint32_t delta[2];
	uint64_t pblk, cblks;
	uint64_t nextpackoff;
	int partialref;
};

static uint64_t lcount(const struct lc *m)
{
	uint64_t n = m->ino->size >> m->z->lclusterbits;

	return n + ((m->ino->size & ((1ull << m->z->lclusterbits) - 1)) != 0);
}

static uint64_t index_base(const struct er_inode *ino)
{
	return ((er_inode_tail(ino) + 7) & ~(uint64_t)7) + ER_MAP_HEADER_SIZE;
}

static int load_full(struct lc *m, uint64_t lcn, struct ff_err *err)
{
	uint64_t pos = index_base(m->ino) + 8 + lcn * ER_LCLUSTER_INDEX_SIZE;
	uint8_t b[ER_LCLUSTER_INDEX_SIZE];
	unsigned advise;
	int ret;

	if ((ret = er_pread(m->rd, b, sizeof(b), pos, "lcluster index", m->ino->nid, err)) < 0)
		return ret;
	m->lcn = lcn;
	m->nextpackoff = pos + sizeof(b);
	advise = ff_get_le16(b);
	m->type = advise & 3;
	if (m->type != ER_LC_NONHEAD) {
		m->partialref = !!(advise & ER_LI_PARTIAL_REF);
		m->clusterofs = ff_get_le16(b + 2);
		m->pblk = ff_get_le32(b + 4);
		return 0;
	}
	m->clusterofs = 1u << m->z->lclusterbits;
	m->delta[0] = ff_get_le16(b + 4);
	m->delta[1] = ff_get_le16(b + 6);
	if (m->delta[0] & ER_LI_D0_CBLKCNT) {
		if (!(m->z->advise & (ER_ADVISE_BIG_PCLUSTER_1 | ER_ADVISE_BIG_PCLUSTER_2)))
			return ER_BAD(err, "inode %llu: lcluster %llu: block count without big "
				      "pclusters", (unsigned long long)m->ino->nid,
				      (unsigned long long)lcn);
		m->cblks = m->delta[0] & ~ER_LI_D0_CBLKCNT;
		m->delta[0] = 1;
	}
	return 0;
}

/* One compact index: lobits of value, then 2 bits of type, at bit pos. */
static uint32_t cbits(const uint8_t *pack, unsigned lobits, unsigned pos, unsigned *type)
{
	uint32_t v = ff_get_le32(pack + pos / 8) >> (pos & 7);

	*type = (v >> lobits) & 3;
	return v & ((1u << lobits) - 1);
}

struct pack {
	const uint8_t *in;
	unsigned lobits, encodebits, vcnt;
};

/* The distance to the next head from entry i (delta[1], not stored in
 * compact packs but for their last entry). */
static uint32_t la_distance(const struct pack *p, int i)
{
	uint32_t lo = 0, d1 = 0;
	unsigned type;

	do {
		lo = cbits(p->in, p->lobits, p->encodebits * (unsigned)i, &type);
		if (type != ER_LC_NONHEAD)
			return d1;
		++d1;
	} while (++i < (int)p->vcnt);
	if (!(lo & ER_LI_D0_CBLKCNT) && lo)
		d1 += lo - 1;
	return d1;
}

static int compact_nonhead(struct lc *m, const struct pack *p, int i, uint32_t lo,
			   int lookahead, struct ff_err *err)
{
	unsigned type;

	m->clusterofs = 1u << m->z->lclusterbits;
	if (lookahead)
		m->delta[1] = la_distance(p, i);
	if (lo & ER_LI_D0_CBLKCNT) {
		if (!(m->z->advise & ER_ADVISE_BIG_PCLUSTER_1))
			return ER_BAD(err, "inode %llu: lcluster %llu: block count without big "
				      "pclusters", (unsigned long long)m->ino->nid,
				      (unsigned long long)m->lcn);
		m->cblks = lo & ~ER_LI_D0_CBLKCNT;
		m->delta[0] = 1;
		return 0;
	}
	if (i + 1 != (int)p->vcnt) {
		m->delta[0] = lo;
		return 0;
	}
	/* The pack's last entry holds delta[1]: delta[0] is its neighbour's
	 * plus one. */
	lo = cbits(p->in, p->lobits, p->encodebits * (unsigned)(i - 1), &type);
	if (type != ER_LC_NONHEAD)
		lo = 0;
	else if (lo & ER_LI_D0_CBLKCNT)
		lo = 1;
	m->delta[0] = lo + 1;
	return 0;
}

/* A head's block: the pack's base block plus the blocks of the heads
 * (or counted big pclusters) before it in the pack. */
static int compact_pblk(struct lc *m, const struct pack *p, int i, struct ff_err *err)
{
	uint64_t nblk = 0;
	unsigned type;
	uint32_t lo;

	if (!(m->z->advise & ER_ADVISE_BIG_PCLUSTER_1)) {
		nblk = 1;
		while (i > 0) {
			lo = cbits(p->in, p->lobits, p->encodebits * (unsigned)--i, &type);
			if (type == ER_LC_NONHEAD)
				i -= (int)lo;
			if (i >= 0)
				++nblk;
		}
	} else {
		while (i > 0) {
			lo = cbits(p->in, p->lobits, p->encodebits * (unsigned)--i, &type);
			if (type != ER_LC_NONHEAD) {
				++nblk;
			} else if (lo & ER_LI_D0_CBLKCNT) {
				--i;
				nblk += lo & ~ER_LI_D0_CBLKCNT;
			} else if (lo <= 1) {
				return ER_BAD(err, "inode %llu: lcluster %llu: delta %u in a big "
					      "pcluster", (unsigned long long)m->ino->nid,
					      (unsigned long long)m->lcn, lo);
			} else {
				i -= (int)lo - 2;
			}
		}
	}
	m->pblk = ff_get_le32(p->in + (p->vcnt << (p->vcnt == 2 ? 2 : 1)) - 4) + nblk;
	return 0;
}

/* Where lcn's compact index is: 4-byte entries up to a 32-byte boundary,
 * then 2-byte ones in packs of 16 (when advised), then 4-byte ones. */
static uint64_t compact_pos(const struct lc *m, uint64_t lcn, unsigned *shift)
{
	uint64_t ebase = index_base(m->ino), total = (m->ino->size + m->rd->sb.blksz - 1) >>
						     m->rd->sb.blkszbits;
	uint64_t initial = ((32 - ebase % 32) / 4) & 7, c2b = 0, pos = ebase;

	if ((m->z->advise & ER_ADVISE_COMPACTED_2B) && initial < total)
		c2b = (total - initial) / 16 * 16;
	*shift = 2;
	if (lcn >= initial) {
		pos += initial * 4;
		lcn -= initial;
		if (lcn < c2b) {
			*shift = 1;
		} else {
			pos += c2b * 2;
			lcn -= c2b;
		}
	}
	return pos + (lcn << *shift);
}

static int load_compact(struct lc *m, uint64_t lcn, int lookahead, struct ff_err *err)
{
	unsigned bits = m->z->lclusterbits, shift, type;
	uint64_t total = (m->ino->size + m->rd->sb.blksz - 1) >> m->rd->sb.blkszbits;
	uint64_t pos, start;
	uint8_t in[32];
	struct pack p;
	uint32_t lo;
	int ret, i;

	if (lcn >= total)
		return ER_BAD(err, "inode %llu: lcluster %llu past its %llu indexes",
			      (unsigned long long)m->ino->nid, (unsigned long long)lcn,
			      (unsigned long long)total);
	m->lcn = lcn;
	pos = compact_pos(m, lcn, &shift);
	p.vcnt = shift == 2 ? 2 : 16;
	if ((shift == 2 && bits > 14) || (shift == 1 && bits > 12))
		return ER_UNSUP(err, "inode %llu: %u-bit lclusters in %u-byte compact indexes",
				(unsigned long long)m->ino->nid, bits, 1u << shift);
	start = pos & ~(uint64_t)((p.vcnt << shift) - 1);
	if ((ret = er_pread(m->rd, in, p.vcnt << shift, start, "compact index pack",
			    m->ino->nid, err)) < 0)
		return ret;
	m->nextpackoff = start + (p.vcnt << shift);
	p.in = in;
	p.lobits = bits > 12 ? bits : 12;
	p.encodebits = (((p.vcnt << shift) - 4) * 8) / p.vcnt;
	i = (int)((pos - start) >> shift);
	lo = cbits(in, p.lobits, p.encodebits * (unsigned)i, &type);
	m->type = type;
	if (type == ER_LC_NONHEAD)
		return compact_nonhead(m, &p, i, lo, lookahead, err);
	m->clusterofs = lo;
	m->delta[0] = 0;
	return compact_pblk(m, &p, i, err);
}

static int load(struct lc *m, uint64_t lcn, int lookahead, struct ff_err *err)
{
	int ret;

	if (lcn >= lcount(m))
		return ER_BAD(err, "inode %llu: lcluster %llu past the file's %llu",
			      (unsigned long long)m->ino->nid, (unsigned long long)lcn,
			      (unsigned long long)lcount(m));
	if (m->ino->layout == ER_COMPRESSED_COMPACT)
		ret = load_compact(m, lcn, lookahead, err);
	else
		ret = load_full(m, lcn, err);
	if (ret < 0)
		return ret;
	if (m->type != ER_LC_NONHEAD && m->clusterofs >= (1u << m->z->lclusterbits))
		return ER_BAD(err, "inode %llu: lcluster %llu: cluster offset %u past %u",
			      (unsigned long long)m->ino->nid, (unsigned long long)lcn,
			      m->clusterofs, 1u << m->z->lclusterbits);
	return 0;
}

/* Back from a NONHEAD lcluster to its head; lcn falls at every step. */
static int lookback(struct lc *m, uint32_t dist, struct er_map *map, struct ff_err *err)
{
	int ret;

	while (dist && m->lcn >= dist) {
		if ((ret = load(m, m->lcn - dist, 0, err)) < 0)
			return ret;
		if (m->type == ER_LC_NONHEAD) {
			dist = m->delta[0];
			continue;
		}
		m->headtype = m->type;
		map->la = (m->lcn << m->z->lclusterbits) | m->clusterofs;
		return 0;
	}
	return ER_BAD(err, "inode %llu: lcluster %llu: look-back distance %u leads nowhere",
		      (unsigned long long)m->ino->nid, (unsigned long long)m->lcn, dist);
}

static int compressed_len(struct lc *m, struct er_map *map, struct ff_err *err)
{
	int big1 = !!(m->z->advise & ER_ADVISE_BIG_PCLUSTER_1);
	int big2 = !!(m->z->advise & ER_ADVISE_BIG_PCLUSTER_2);
	uint64_t lcn = m->lcn + 1;
	int ret;

	if ((m->headtype == ER_LC_HEAD1 && !big1) ||
	    (m->headtype != ER_LC_HEAD1 && !big2) || (lcn << m->z->lclusterbits) >= m->ino->size)
		m->cblks = 1;
	if (!m->cblks) {
		if ((ret = load(m, lcn, 0, err)) < 0)
			return ret;
		if (m->type != ER_LC_NONHEAD)
			m->cblks = 1;
		else if (m->delta[0] != 1 || !m->cblks)
			return ER_BAD(err, "inode %llu: lcluster %llu: no block count for the big "
				      "pcluster before it", (unsigned long long)m->ino->nid,
				      (unsigned long long)lcn);
	}
	map->plen = m->cblks << m->rd->sb.blkszbits;
	return 0;
}

/* Forward to the next head: the extent's whole decoded length. */
static int decoded_len(struct lc *m, struct er_map *map, struct ff_err *err)
{
	unsigned bits = m->z->lclusterbits;
	uint64_t lcn = m->lcn, head = map->la >> bits;
	int ret;

	for (;;) {
		if ((lcn << bits) >= m->ino->size) {
			map->llen = m->ino->size - map->la;
			return 0;
		}
		if (((lcn - head) << bits) > ER_PCLUSTER_MAX_DSIZE)
			return ER_BAD(err, "inode %llu: extent at %llu decodes to more than %u "
				      "bytes", (unsigned long long)m->ino->nid,
				      (unsigned long long)map->la, ER_PCLUSTER_MAX_DSIZE);
		if ((ret = load(m, lcn, 1, err)) < 0)
			return ret;
		if (m->type == ER_LC_NONHEAD) {
			if (!m->delta[1])
				m->delta[1] = 1; /* written so by pre-1.0 mkfs */
		} else {
			if (lcn != head)
				break;
			m->delta[1] = 1;
		}
		lcn += m->delta[1];
	}
	map->llen = (lcn << bits) + m->clusterofs - map->la;
	return 0;
}

/* Finds the head of the extent containing ofs; full says its end is
 * known (it ends inside ofs's lcluster). */
static int find_head(struct lc *m, uint64_t ofs, struct er_map *map, uint64_t *end, int *full,
		     struct ff_err *err)
{
	unsigned bits = m->z->lclusterbits;
	uint32_t endoff = (uint32_t)(ofs & ((1ull << bits) - 1));
	int ret;

	if ((ret = load(m, ofs >> bits, 0, err)) < 0)
		return ret;
	*end = (m->lcn + 1) << bits;
	*full = 0;
	if (m->type != ER_LC_NONHEAD && endoff >= m->clusterofs) {
		m->headtype = m->type;
		map->la = (m->lcn << bits) | m->clusterofs;
		return 0;
	}
	if (m->type != ER_LC_NONHEAD) {
		if (!m->lcn)
			return ER_BAD(err, "inode %llu: lcluster 0 does not start at 0",
				      (unsigned long long)m->ino->nid);
		*end = (m->lcn << bits) | m->clusterofs;
		*full = 1;
		m->delta[0] = 1;
	}
	return lookback(m, m->delta[0], map, err);
}

static int set_alg(struct lc *m, struct er_map *map, struct ff_err *err)
{
	if (m->headtype == ER_LC_PLAIN)
		map->alg = m->z->advise & ER_ADVISE_INTERLACED_PCLUSTER ? ER_ALG_INTERLACED
									 : ER_ALG_SHIFTED;
	else
		map->alg = m->z->alg[m->headtype == ER_LC_HEAD2];
	if (map->alg < ER_ALG_MAX && !(m->rd->sb.algs & (1u << map->alg)))
		return ER_BAD(err, "inode %llu: extent at %llu uses %s, which the superblock "
			      "does not configure", (unsigned long long)m->ino->nid,
			      (unsigned long long)map->la, er_alg_name(map->alg));
	if (map->alg >= ER_ALG_MAX && map->alg != ER_ALG_SHIFTED && map->alg != ER_ALG_INTERLACED)
		return ER_UNSUP(err, "inode %llu: compression algorithm %u not supported",
				(unsigned long long)m->ino->nid, map->alg);
	return 0;
}

/* The tail extent: inline after the indexes, or in the packed inode. */
static int place_tail(struct lc *m, struct er_map *map, struct ff_err *err)
{
	uint32_t bmask = m->rd->sb.blksz - 1;

	if (m->z->idata_size) {
		map->flags |= ER_MAP_META;
		map->pa = m->z->tailpos;
		map->plen = m->z->idata_size;
		if ((map->pa & bmask) + map->plen > m->rd->sb.blksz)
			return ER_BAD(err, "inode %llu: inline pcluster of %llu bytes at %llu "
				      "crosses a block", (unsigned long long)m->ino->nid,
				      (unsigned long long)map->plen, (unsigned long long)map->pa);
		return 0;
	}
	map->flags = ER_MAP_FRAGMENT;
	return 0;
}

static int map_lclusters(struct lc *m, uint64_t ofs, struct er_map *map, struct ff_err *err)
{
	int tail = m->z->idata_size || (m->z->advise & ER_ADVISE_FRAGMENT_PCLUSTER);
	uint64_t end;
	int full, ret;

	if ((ret = find_head(m, ofs, map, &end, &full, err)) < 0)
		return ret;
	map->flags = ER_MAP_MAPPED | ER_MAP_ENCODED | (m->partialref ? ER_MAP_PARTIAL : 0);
	if (tail && m->lcn == m->z->tail_headlcn) {
		if ((ret = place_tail(m, map, err)) < 0)
			return ret;
		map->llen = m->ino->size - map->la;
		if (map->flags & ER_MAP_FRAGMENT)
			return 0;
	} else {
		map->pa = m->pblk << m->rd->sb.blkszbits;
		if ((ret = compressed_len(m, map, err)) < 0)
			return ret;
		map->llen = end - map->la;
		if (!full && (ret = decoded_len(m, map, err)) < 0)
			return ret;
	}
	if ((ret = set_alg(m, map, err)) < 0)
		return ret;
	if (m->headtype == ER_LC_PLAIN && !(map->flags & ER_MAP_FRAGMENT) &&
	    map->llen > map->plen && !(map->flags & ER_MAP_PARTIAL))
		return ER_BAD(err, "inode %llu: stored extent at %llu: %llu bytes from a "
			      "%llu-byte pcluster", (unsigned long long)m->ino->nid,
			      (unsigned long long)map->la, (unsigned long long)map->llen,
			      (unsigned long long)map->plen);
	return 0;
}

/* The tail extent's head lcluster and, inline, where its bytes are. */
static int find_tail(const struct er_rd *rd, const struct er_inode *ino, struct er_zinfo *z,
		     struct ff_err *err)
{
	struct lc m = { .rd = rd, .ino = ino, .z = z };
	struct er_map map;
	uint64_t end;
	int full, ret;

	if (!ino->size)
		return ER_BAD(err, "inode %llu: empty file with a compressed tail",
			      (unsigned long long)ino->nid);
	if ((ret = load(&m, (ino->size - 1) >> z->lclusterbits, 0, err)) < 0)
		return ret;
	z->tailpos = m.nextpackoff;
	if ((ret = find_head(&m, ino->size - 1, &map, &end, &full, err)) < 0)
		return ret;
	z->tail_headlcn = m.lcn;
	if ((z->advise & ER_ADVISE_FRAGMENT_PCLUSTER) && ino->layout == ER_COMPRESSED_FULL)
		z->fragmentoff |= m.pblk << 32;
	return 0;
}

int er_zinfo_load(const struct er_rd *rd, const struct er_inode *ino, struct er_zinfo *z,
		  struct ff_err *err)
{
	uint64_t pos = (er_inode_tail(ino) + 7) & ~(uint64_t)7;
	uint8_t h[ER_MAP_HEADER_SIZE];
	int ret;

	memset(z, 0, sizeof(*z));
	if ((ret = er_pread(rd, h, sizeof(h), pos, "map header", ino->nid, err)) < 0)
		return ret;
	if (h[7] & ER_FRAGMENT_INODE_BIT) {
		z->advise = ER_ADVISE_FRAGMENT_PCLUSTER;
		z->all_fragment = 1;
		z->fragmentoff = ff_get_le64(h) & ~(1ull << 63);
		return 0;
	}
	z->advise = ff_get_le16(h + 4);
	z->lclusterbits = rd->sb.blkszbits + (h[7] & 15);
	if (ino->layout == ER_COMPRESSED_FULL && (z->advise & ER_ADVISE_EXTENTS))
		return ER_UNSUP(err, "inode %llu: extent-table compressed layout not supported",
				(unsigned long long)ino->nid);
	z->alg[0] = h[6] & 15;
	z->alg[1] = h[6] >> 4;
	if (z->advise & ER_ADVISE_FRAGMENT_PCLUSTER)
		z->fragmentoff = ff_get_le32(h);
	else if (z->advise & ER_ADVISE_INLINE_PCLUSTER)
		z->idata_size = ff_get_le16(h + 2);
	if (ino->layout == ER_COMPRESSED_COMPACT &&
	    !(z->advise & ER_ADVISE_BIG_PCLUSTER_1) != !(z->advise & ER_ADVISE_BIG_PCLUSTER_2))
		return ER_BAD(err, "inode %llu: compact indexes with big pclusters for one head "
			      "type only", (unsigned long long)ino->nid);
	if (z->idata_size || (z->advise & ER_ADVISE_FRAGMENT_PCLUSTER))
		return find_tail(rd, ino, z, err);
	return 0;
}

static int check_map(const struct er_inode *ino, uint64_t off, const struct er_map *map,
		     struct ff_err *err)
{
	if (map->la > off || map->la + map->llen <= off || map->la + map->llen > ino->size)
		return ER_BAD(err, "inode %llu: extent [%llu, +%llu) for offset %llu in a "
			      "%llu-byte file", (unsigned long long)ino->nid,
			      (unsigned long long)map->la, (unsigned long long)map->llen,
			      (unsigned long long)off, (unsigned long long)ino->size);
	if (map->flags & ER_MAP_FRAGMENT)
		return 0;
	if (map->plen > ER_PCLUSTER_MAX_SIZE || map->llen > ER_PCLUSTER_MAX_DSIZE || !map->plen)
		return ER_BAD(err, "inode %llu: extent at %llu: %llu bytes from %llu (limits "
			      "%u and %u)", (unsigned long long)ino->nid,
			      (unsigned long long)map->la, (unsigned long long)map->llen,
			      (unsigned long long)map->plen, ER_PCLUSTER_MAX_DSIZE,
			      ER_PCLUSTER_MAX_SIZE);
	return 0;
}

int er_zmap(const struct er_rd *rd, const struct er_inode *ino, const struct er_zinfo *z,
	    uint64_t off, struct er_map *map, struct ff_err *err)
{
	struct lc m = { .rd = rd, .ino = ino, .z = z };
	int ret;

	memset(map, 0, sizeof(*map));
	if (z->all_fragment || ((z->advise & ER_ADVISE_FRAGMENT_PCLUSTER) &&
				!z->idata_size && !z->tail_headlcn)) {
		map->llen = ino->size;
		map->flags = ER_MAP_FRAGMENT;
		return 0;
	}
	if ((ret = map_lclusters(&m, off, map, err)) < 0)
		return ret;
	return check_map(ino, off, map, err);
}
