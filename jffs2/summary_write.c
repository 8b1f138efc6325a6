/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* sumtool (facts from mtd-utils' sumtool.c): it reads a plain image an
 * erase block at a time and packs its inode, dirent, xattr and xref nodes
 * again, in order and unchanged, into erase blocks that each end with a
 * summary node: one record per node (type, offset in the block and what
 * a mount needs without reading the node), 0xff, and an 8-byte marker
 * (the summary's offset, JFFS2_SUM_MAGIC), the summary's totlen running
 * to the block's end.  A node moves to the next block when it, its
 * record and the summary would not fit; cleanmarkers (when the input had
 * one and -n is not given) start each block; padding and cleanmarkers of
 * the input go.  The last block gets a summary only when it is nearly
 * full (less than an inode node and two minimal data pieces left), else
 * it ends where its nodes end (or, with -p, is padded with 0xff). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "jffs2/write_priv.h"

#define REC_INODE 18u
#define REC_DIRENT 24u
#define REC_XATTR 18u
#define REC_XREF 6u

struct j2_sum {
	const struct ff_jffs2_write_opts *o;
	struct ff_outfile *of;
	int big, found_marker;
	uint32_t ebs;
	uint8_t *data;     /* the output block being filled */
	uint32_t data_ofs;
	uint8_t *recs;     /* its summary records, as stored */
	uint32_t sum_size, sum_num;
	uint8_t marker[J2_HDR_SIZE];
};

struct j2_sum *j2_sum_new(const struct ff_jffs2_write_opts *o, struct ff_outfile *of,
			  struct ff_err *err)
{
	struct j2_sum *s = calloc(1, sizeof(*s));

	if (s) {
		s->data = malloc(o->erase_size);
		s->recs = malloc(o->erase_size);
	}
	if (!s || !s->data || !s->recs) {
		j2_sum_free(s);
		ff_err_set(err, ENOMEM, "out of memory for the summary of a %u-byte erase block",
			   o->erase_size);
		return NULL;
	}
	s->o = o;
	s->of = of;
	s->big = o->big_endian;
	s->ebs = o->erase_size;
	j2_hdr_encode(s->marker, J2_NT_CLEANMARKER, o->cleanmarker_size, s->big);
	return s;
}

void j2_sum_free(struct j2_sum *s)
{
	if (!s)
		return;
	free(s->data);
	free(s->recs);
	free(s);
}

static void put(struct j2_sum *s, const uint8_t *p, uint32_t len)
{
	if (p)
		memcpy(s->data + s->data_ofs, p, len);
	else
		memset(s->data + s->data_ofs, 0xff, len);
	s->data_ofs += len;
}

static void padword(struct j2_sum *s)
{
	if (s->data_ofs % 4)
		put(s, NULL, 4 - s->data_ofs % 4);
}

static int write_out(struct j2_sum *s, struct ff_err *err)
{
	int r = ff_outfile_write(s->of, s->data, s->data_ofs, err);

	s->data_ofs = 0;
	return r;
}

static int markers(const struct j2_sum *s)
{
	return s->o->cleanmarkers && s->found_marker;
}

/* The summary node from data_ofs to the block's end. */
static void dump(struct j2_sum *s)
{
	uint32_t datasize = s->sum_size + J2_SUM_MARKER_SIZE;
	uint32_t pad = s->ebs - s->data_ofs - J2_SUMMARY_SIZE - datasize;
	uint8_t *h = s->data + s->data_ofs, *t = h + J2_SUMMARY_SIZE;

	if (!s->sum_num)
		return;
	datasize += pad;
	memcpy(t, s->recs, s->sum_size);
	memset(t + s->sum_size, 0xff, pad);
	ff_put32(t + s->sum_size + pad, s->data_ofs, s->big);
	ff_put32(t + s->sum_size + pad + 4, J2_SUM_MAGIC, s->big);
	j2_hdr_encode(h, J2_NT_SUMMARY, J2_SUMMARY_SIZE + datasize, s->big);
	ff_put32(h + 12, s->sum_num, s->big);
	ff_put32(h + 16, markers(s) ? s->o->cleanmarker_size : 0, s->big);
	ff_put32(h + 20, 0, s->big);
	ff_put32(h + 24, j2_crc(t, datasize), s->big);
	ff_put32(h + 28, j2_crc(h, J2_SUMMARY_SIZE - 8), s->big);
	s->data_ofs += J2_SUMMARY_SIZE + datasize;
	s->sum_size = s->sum_num = 0;
}

/* sumtool compares in unsigned arithmetic: a summary that could never
 * fit wraps to "fits". */
static int reserve(struct j2_sum *s, uint32_t req, uint32_t rec, struct ff_err *err)
{
	uint32_t datasize = req + rec + s->sum_size + J2_SUMMARY_SIZE + J2_SUM_MARKER_SIZE;

	datasize = j2_pad(datasize);
	if (s->data_ofs + req > s->ebs - datasize) {
		dump(s);
		if (write_out(s, err))
			return -1;
	}
	if (markers(s) && !s->data_ofs) {
		put(s, s->marker, J2_HDR_SIZE);
		put(s, NULL, s->o->cleanmarker_size - J2_HDR_SIZE);
		padword(s);
	}
	return 0;
}

/* The record for the node at n (totlen bytes, type known), at data_ofs. */
static uint32_t record(struct j2_sum *s, const uint8_t *n, uint16_t type, uint32_t totlen)
{
	uint8_t *r = s->recs + s->sum_size;
	int big = s->big;

	ff_put16(r, type, big);
	switch (type) {
	case J2_NT_INODE:
	case J2_NT_XATTR:
		memcpy(r + 2, n + 12, 8); /* ino and version, or xid and version */
		ff_put32(r + 10, s->data_ofs, big);
		ff_put32(r + 14, totlen, big);
		return REC_INODE;
	case J2_NT_DIRENT:
		ff_put32(r + 2, totlen, big);
		ff_put32(r + 6, s->data_ofs, big);
		memcpy(r + 10, n + 12, 12); /* pino, version, ino */
		r[22] = n[28];
		r[23] = n[29];
		memcpy(r + 24, n + J2_DIRENT_SIZE, n[28]);
		return REC_DIRENT + n[28];
	default:
		ff_put32(r + 2, s->data_ofs, big);
		return REC_XREF;
	}
}

static uint32_t record_size(const uint8_t *n, uint16_t type)
{
	return type == J2_NT_DIRENT ? REC_DIRENT + n[28] : type == J2_NT_XREF ? REC_XREF : REC_INODE;
}

static int pack_node(struct j2_sum *s, const uint8_t *n, uint16_t type, uint32_t totlen,
		     struct ff_err *err)
{
	if (reserve(s, totlen, record_size(n, type), err))
		return -1;
	s->sum_size += record(s, n, type, totlen);
	s->sum_num++;
	put(s, n, totlen);
	padword(s);
	return 0;
}

int j2_sum_block(struct j2_sum *s, const uint8_t *blk, uint32_t len, struct ff_err *err)
{
	uint32_t p = 0;

	while (p + J2_HDR_SIZE <= len) {
		struct j2_hdr h;

		if (!j2_hdr_decode(blk + p, s->big, &h)) {
			p += 4; /* 0xff between nodes */
			continue;
		}
		if (h.totlen < J2_HDR_SIZE || h.totlen > len - p)
			return ff_err_set(err, EIO, "summary: node at %u of an erase block has totlen %u,"
					  " past the block's %u bytes", p, h.totlen, len);
		if (h.type == J2_NT_CLEANMARKER)
			s->found_marker = 1;
		else if ((h.type == J2_NT_INODE || h.type == J2_NT_DIRENT || h.type == J2_NT_XATTR ||
			  h.type == J2_NT_XREF) && pack_node(s, blk + p, h.type, h.totlen, err))
			return -1;
		p += j2_pad(h.totlen);
	}
	return 0;
}

int j2_sum_finish(struct j2_sum *s, struct ff_err *err)
{
	uint32_t datasize = j2_pad(s->sum_size + J2_SUMMARY_SIZE + J2_SUM_MARKER_SIZE);
	uint32_t empty = markers(s) ? s->o->cleanmarker_size : 0;

	if (s->data_ofs == empty)
		return 0;
	if ((uint64_t)s->data_ofs + J2_INODE_SIZE + 2 * J2_MIN_DATA_LEN >
	    (uint64_t)(s->ebs - datasize)) {
		dump(s);
	} else if (s->o->pad) {
		put(s, NULL, s->ebs - s->data_ofs);
	}
	return write_out(s, err);
}
