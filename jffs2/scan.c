/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The erase-block scan (fs/jffs2/scan.c as facts): each block on its own;
 * erased words (0xffffffff) skipped; anything that is not a node header
 * with a sound CRC skipped 4 bytes at a time until the next one (the
 * kernel's resync); a node that would run over its block's end rejected;
 * an obsoleted node (ACCURATE bit clear) skipped whole; cleanmarkers,
 * padding and summaries counted; every other node checked in full (node,
 * name and data CRCs) and kept when sound.  A block whose first 1 KiB is
 * erased is empty, as the kernel decides (EMPTY_SCAN_SIZE). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "common/problems.h"
#include "jffs2/node.h"
#include "jffs2/scan.h"

#define EMPTY_SCAN 1024u

/* Grows an array of records by one; NULL when out of memory. */
static void *grow(void **v, size_t *n, size_t *cap, size_t size)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		void *nv = realloc(*v, nc * size);

		if (!nv)
			return NULL;
		*v = nv;
		*cap = nc;
	}
	return (uint8_t *)*v + (*n)++ * size;
}

#define GROW(s, name) grow((void **)&(s)->name, &(s)->n_##name, &(s)->cap_##name, \
			   sizeof(*(s)->name))

static int bad_node(struct j2_scan *s, uint64_t pos, const char *kind, const char *what,
		    uint32_t want, uint32_t calc)
{
	if (strstr(what, "CRC")) {
		s->c.bad_crc++;
		ff_problem_add(&s->prob, "%s node at offset %llu: %s (stored 0x%08x, computed 0x%08x)",
			       kind, (unsigned long long)pos, what, want, calc);
	} else {
		s->c.bad_other++;
		ff_problem_add(&s->prob, "%s node at offset %llu: %s (%u, %u)", kind,
			       (unsigned long long)pos, what, want, calc);
	}
	return 0;
}

static int too_short(struct j2_scan *s, uint64_t pos, const char *kind, uint32_t totlen,
		     uint32_t need)
{
	s->c.bad_other++;
	ff_problem_add(&s->prob, "%s node at offset %llu: totlen %u is shorter than its %u-byte head",
		       kind, (unsigned long long)pos, totlen, need);
	return 0;
}

static int take_inode(struct j2_scan *s, const uint8_t *b, uint32_t totlen, uint64_t pos)
{
	struct j2_inode_node n;
	struct j2_inode_rec *r;
	uint32_t want, calc;
	const char *bad;

	if (totlen < J2_INODE_SIZE)
		return too_short(s, pos, "inode", totlen, J2_INODE_SIZE);
	j2_inode_decode(b, s->geo.big, &n);
	bad = j2_inode_check(b, totlen, &n, &want, &calc);
	if (bad)
		return bad_node(s, pos, "inode", bad, want, calc);
	if (!n.ino)
		return bad_node(s, pos, "inode", "inode number 0", 0, n.version);
	s->c.inode++;
	if (n.compr < 32)
		s->c.compr_mask |= 1u << n.compr;
	r = GROW(s, inodes);
	if (!r)
		return -1;
	*r = (struct j2_inode_rec){ pos, s->seq++, n.ino, n.version, n.mode, n.isize, n.atime,
				    n.mtime, n.ctime, n.offset, n.csize, n.dsize, n.uid, n.gid,
				    n.compr };
	/* An old kernel wrote hole nodes with csize and dsize swapped
	 * (readinode.c reads them back this way). */
	if (n.compr == J2_COMPR_ZERO && !n.dsize && n.csize) {
		r->dsize = n.csize;
		r->csize = 0;
	}
	return 0;
}

static int take_dirent(struct j2_scan *s, const uint8_t *b, uint32_t totlen, uint64_t pos)
{
	struct j2_dirent_node n;
	struct j2_dirent_rec *r;
	uint32_t want, calc;
	const char *bad;

	if (totlen < J2_DIRENT_SIZE)
		return too_short(s, pos, "dirent", totlen, J2_DIRENT_SIZE);
	j2_dirent_decode(b, s->geo.big, &n);
	bad = j2_dirent_check(b, totlen, &n, &want, &calc);
	if (bad)
		return bad_node(s, pos, "dirent", bad, want, calc);
	s->c.dirent++;
	r = GROW(s, dirents);
	if (!r)
		return -1;
	*r = (struct j2_dirent_rec){ pos, s->seq++, n.pino, n.ino, n.version, n.mctime, n.type,
				     n.nsize, malloc((size_t)n.nsize + 1) };
	if (!r->name) {
		s->n_dirents--;
		return -1;
	}
	memcpy(r->name, n.name, n.nsize);
	r->name[n.nsize] = 0;
	return 0;
}

static int take_xattr(struct j2_scan *s, const uint8_t *b, uint32_t totlen, uint64_t pos)
{
	struct j2_xattr_node n;
	struct j2_xattr_rec *r;
	uint32_t want, calc;
	size_t len;
	const char *bad;

	if (totlen < J2_XATTR_SIZE)
		return too_short(s, pos, "xattr", totlen, J2_XATTR_SIZE);
	j2_xattr_decode(b, s->geo.big, &n);
	bad = j2_xattr_check(b, totlen, &n, &want, &calc);
	if (bad)
		return bad_node(s, pos, "xattr", bad, want, calc);
	s->c.xattr++;
	len = (size_t)n.name_len + 1 + n.value_len;
	r = GROW(s, xattrs);
	if (!r)
		return -1;
	*r = (struct j2_xattr_rec){ pos, s->seq++, n.xid, n.version, n.xprefix, n.name_len,
				    n.value_len, malloc(len) };
	if (!r->data) {
		s->n_xattrs--;
		return -1;
	}
	memcpy(r->data, n.data, len);
	r->data[n.name_len] = 0;
	return 0;
}

static int take_xref(struct j2_scan *s, const uint8_t *b, uint32_t totlen, uint64_t pos)
{
	struct j2_xref_node n;
	struct j2_xref_rec *r;
	uint32_t want, calc;
	const char *bad;

	if (totlen < J2_XREF_SIZE)
		return too_short(s, pos, "xref", totlen, J2_XREF_SIZE);
	j2_xref_decode(b, s->geo.big, &n);
	bad = j2_xref_check(b, totlen, &n, &want, &calc);
	if (bad)
		return bad_node(s, pos, "xref", bad, want, calc);
	s->c.xref++;
	r = GROW(s, xrefs);
	if (!r)
		return -1;
	*r = (struct j2_xref_rec){ pos, s->seq++, n.ino, n.xid, n.xseqno };
	return 0;
}

static int take_summary(struct j2_scan *s, const uint8_t *b, uint32_t totlen, uint64_t pos)
{
	struct j2_summary_node n;
	uint32_t want, calc;
	const char *bad;

	if (totlen < J2_SUMMARY_SIZE)
		return too_short(s, pos, "summary", totlen, J2_SUMMARY_SIZE);
	j2_summary_decode(b, s->geo.big, &n);
	bad = j2_summary_check(b, totlen, &n, &want, &calc);
	if (bad)
		return bad_node(s, pos, "summary", bad, want, calc);
	s->c.summary++;
	return 0;
}

/* Node types this reader does not know, by their compatibility bits. */
static void take_unknown(struct j2_scan *s, uint16_t type, uint64_t pos)
{
	s->c.unknown++;
	if ((type & J2_COMPAT_MASK) == J2_FEATURE_INCOMPAT)
		ff_problem_add(&s->prob, "node at offset %llu: unknown incompatible node type 0x%04x (the kernel refuses to mount)",
			       (unsigned long long)pos, type);
	else if ((type & J2_COMPAT_MASK) == J2_FEATURE_ROCOMPAT)
		ff_problem_add(&s->prob, "node at offset %llu: unknown read-only-compatible node type 0x%04x (the kernel mounts read-only)",
			       (unsigned long long)pos, type);
}

/* One sound-headed node at b (totlen bytes, inside the block); returns the
 * bytes to advance, or -1 when out of memory. */
static int64_t take_node(struct j2_scan *s, const uint8_t *b, const struct j2_hdr *h,
			 uint64_t pos)
{
	int ret = 0;

	if (!(h->type & J2_ACCURATE)) {
		s->c.obsolete++;
		return j2_pad(h->totlen);
	}
	switch (h->type) {
	case J2_NT_INODE: ret = take_inode(s, b, h->totlen, pos); break;
	case J2_NT_DIRENT: ret = take_dirent(s, b, h->totlen, pos); break;
	case J2_NT_XATTR: ret = take_xattr(s, b, h->totlen, pos); break;
	case J2_NT_XREF: ret = take_xref(s, b, h->totlen, pos); break;
	case J2_NT_SUMMARY: ret = take_summary(s, b, h->totlen, pos); break;
	case J2_NT_PADDING: s->c.padding++; break;
	case J2_NT_CLEANMARKER:
		s->c.cleanmarker++;
		/* The kernel takes a cleanmarker as 12 bytes whatever its
		 * totlen says (its cleanmarker size on NOR). */
		return J2_HDR_SIZE;
	default: take_unknown(s, h->type, pos); break;
	}
	return ret < 0 ? -1 : (int64_t)j2_pad(h->totlen);
}

static uint32_t skip_erased(const uint8_t *b, uint32_t pos, uint32_t len)
{
	while (pos + 4 <= len && ff_get_le32(b + pos) == 0xffffffffu)
		pos += 4;
	return pos;
}

static void end_garbage(struct j2_scan *s, uint64_t *start, uint64_t end)
{
	if (*start == UINT64_MAX)
		return;
	s->c.garbage_bytes += end - *start;
	ff_problem_add(&s->prob, "%llu bytes at offset %llu are neither erased nor a node",
		       (unsigned long long)(end - *start), (unsigned long long)*start);
	*start = UINT64_MAX;
}

/* A header that decoded; what is wrong with it, or NULL when its node
 * lies whole inside the block. */
static void bad_header(struct j2_scan *s, const struct j2_hdr *h, const uint8_t *b,
		       uint64_t at, uint32_t room, uint64_t block)
{
	if (h->hdr_crc != j2_hdr_crc_calc(b, s->geo.big)) {
		s->c.bad_crc++;
		ff_problem_add(&s->prob, "node at offset %llu: bad header CRC (stored 0x%08x, computed 0x%08x)",
			       (unsigned long long)at, h->hdr_crc, j2_hdr_crc_calc(b, s->geo.big));
	} else if (h->totlen < J2_HDR_SIZE) {
		s->c.bad_other++;
		ff_problem_add(&s->prob, "node at offset %llu: totlen %u is shorter than a node header",
			       (unsigned long long)at, h->totlen);
	} else if (at + h->totlen > s->size) {
		s->c.straddling++;
		ff_problem_add(&s->prob, "node at offset %llu: totlen %u runs past the end of the image (%llu bytes)",
			       (unsigned long long)at, h->totlen, (unsigned long long)s->size);
	} else {
		s->c.straddling++;
		ff_problem_add(&s->prob, "node at offset %llu: totlen %u runs over the end of its erase block at %llu (%u bytes left)",
			       (unsigned long long)at, h->totlen,
			       (unsigned long long)(block + s->geo.erase), room);
	}
}

static int scan_block(struct j2_scan *s, const uint8_t *b, uint32_t len, uint64_t block)
{
	uint64_t garbage = UINT64_MAX;
	uint32_t pos = 0;

	while (pos + J2_HDR_SIZE <= len) {
		struct j2_hdr h;
		uint16_t magic = ff_get16(b + pos, s->geo.big);
		int64_t adv;

		if (ff_get_le32(b + pos) == 0xffffffffu) {
			end_garbage(s, &garbage, block + pos);
			pos = skip_erased(b, pos, len);
			continue;
		}
		if (magic != J2_MAGIC) {
			if (garbage == UINT64_MAX)
				garbage = block + pos;
			pos += 4;
			continue;
		}
		end_garbage(s, &garbage, block + pos);
		if (!j2_hdr_decode(b + pos, s->geo.big, &h) || h.totlen < J2_HDR_SIZE ||
		    h.totlen > len - pos) {
			bad_header(s, &h, b + pos, block + pos, len - pos, block);
			pos += 4;
			continue;
		}
		adv = take_node(s, b + pos, &h, block + pos);
		if (adv < 0)
			return -1;
		pos += (uint32_t)adv;
	}
	end_garbage(s, &garbage, block + (pos < len ? pos : len));
	return 0;
}

/* The kernel looks at the first 1 KiB of a block: all erased, the block is
 * empty, whatever follows. */
static int block_empty(struct j2_scan *s, const uint8_t *b, uint32_t len, uint64_t block)
{
	uint32_t head = len < EMPTY_SCAN ? len : EMPTY_SCAN;

	if (skip_erased(b, 0, head & ~3u) < (head & ~3u))
		return 0;
	if (skip_erased(b, 0, len & ~3u) < (len & ~3u))
		ff_problem_add(&s->prob, "erase block at offset %llu: starts with %u erased bytes; what follows is ignored, as the kernel ignores it",
			       (unsigned long long)block, head);
	s->c.empty_blocks++;
	return 1;
}

int j2_scan_run(struct j2_scan *s, struct ff_err *err)
{
	uint8_t *buf = malloc(s->geo.erase);
	uint64_t block;

	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory for a %u-byte erase block",
				  s->geo.erase);
	for (block = 0; block < s->size; block += s->geo.erase) {
		uint32_t len = s->size - block < s->geo.erase ? (uint32_t)(s->size - block)
							     : s->geo.erase;

		s->c.blocks++;
		if (ff_bsrc_read(s->src, buf, len, block, err) < 0)
			goto fail;
		if (block_empty(s, buf, len, block))
			continue;
		if (scan_block(s, buf, len, block) < 0) {
			ff_err_set(err, ENOMEM, "out of memory");
			goto fail;
		}
	}
	free(buf);
	return 0;
fail:
	free(buf);
	return -1;
}

void j2_scan_free(struct j2_scan *s)
{
	for (size_t i = 0; i < s->n_dirents; i++)
		free(s->dirents[i].name);
	for (size_t i = 0; i < s->n_xattrs; i++)
		free(s->xattrs[i].data);
	free(s->inodes);
	free(s->dirents);
	free(s->xattrs);
	free(s->xrefs);
	ff_problem_list_free(&s->prob);
	s->inodes = NULL;
	s->dirents = NULL;
	s->xattrs = NULL;
	s->xrefs = NULL;
}
