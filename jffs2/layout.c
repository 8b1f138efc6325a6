/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.jffs2's placement of nodes (facts from mtd-utils' mkfs.jffs2.c):
 * every node starts on a 4-byte boundary, the gaps 0xff; a node that does
 * not fit the rest of its erase block moves to the next one, the rest
 * padded with 0xff; with cleanmarkers, each erase block that gets a node
 * starts with one (a bare header, then 0xff up to the cleanmarker size).
 * At the end, -p pads to the erase block's end, -p SIZE to SIZE: whole
 * erase blocks holding a cleanmarker each, or (without cleanmarkers) 0xff
 * bytes.  Erase blocks are handed on whole (the last one as far as it is
 * filled): to the output file, or to sumtool's packer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jffs2/write_priv.h"

static int flush_block(struct j2_lay *l, struct ff_err *err)
{
	int r = l->sum ? j2_sum_block(l->sum, l->blk, l->fill, err)
		       : ff_outfile_write(l->of, l->blk, l->fill, err);

	l->fill = 0;
	return r;
}

/* len bytes of p, or of 0xff when p is NULL, across blocks if need be. */
static int emit(struct j2_lay *l, const uint8_t *p, uint64_t len, struct ff_err *err)
{
	uint32_t ebs = l->o->erase_size;

	while (len) {
		uint32_t n = ebs - l->fill;

		if (n > len)
			n = (uint32_t)len;
		if (p) {
			memcpy(l->blk + l->fill, p, n);
			p += n;
		} else {
			memset(l->blk + l->fill, 0xff, n);
		}
		l->fill += n;
		l->ofs += n;
		len -= n;
		if (l->fill == ebs && flush_block(l, err))
			return -1;
	}
	return 0;
}

static int padword(struct j2_lay *l, struct ff_err *err)
{
	return l->ofs % 4 ? emit(l, NULL, 4 - l->ofs % 4, err) : 0;
}

static int pad_block(struct j2_lay *l, struct ff_err *err)
{
	uint32_t in = (uint32_t)(l->ofs % l->o->erase_size);

	return in ? emit(l, NULL, l->o->erase_size - in, err) : 0;
}

static int cleanmarker(struct j2_lay *l, struct ff_err *err)
{
	if (emit(l, l->marker, J2_HDR_SIZE, err) ||
	    emit(l, NULL, l->o->cleanmarker_size - J2_HDR_SIZE, err))
		return -1;
	return padword(l, err);
}

static int marker_at_start(struct j2_lay *l, struct ff_err *err)
{
	if (l->o->cleanmarkers && l->ofs % l->o->erase_size == 0)
		return cleanmarker(l, err);
	return 0;
}

int j2_lay_init(struct j2_lay *l, const struct ff_jffs2_write_opts *o, struct ff_outfile *of,
		struct ff_err *err)
{
	memset(l, 0, sizeof(*l));
	l->o = o;
	l->of = of;
	l->blk = malloc(o->erase_size);
	if (!l->blk)
		return ff_err_set(err, ENOMEM, "out of memory for a %u-byte erase block",
				  o->erase_size);
	j2_hdr_encode(l->marker, J2_NT_CLEANMARKER, o->cleanmarker_size, o->big_endian);
	if (o->summary && !(l->sum = j2_sum_new(o, of, err))) {
		free(l->blk);
		return -1;
	}
	return 0;
}

int j2_lay_reserve(struct j2_lay *l, uint32_t req, struct ff_err *err)
{
	if (marker_at_start(l, err))
		return -1;
	if (l->ofs % l->o->erase_size + req > l->o->erase_size && pad_block(l, err))
		return -1;
	return marker_at_start(l, err);
}

int j2_lay_put(struct j2_lay *l, const uint8_t *p, uint32_t len, struct ff_err *err)
{
	if (emit(l, p, len, err))
		return -1;
	return padword(l, err);
}

uint32_t j2_lay_room(const struct j2_lay *l)
{
	return l->o->erase_size - (uint32_t)(l->ofs % l->o->erase_size);
}

static int pad_to_size(struct j2_lay *l, struct ff_err *err)
{
	uint64_t size = (uint64_t)l->o->pad;

	if (!l->o->cleanmarkers)
		return l->ofs < size ? emit(l, NULL, size - l->ofs, err) : 0;
	if (pad_block(l, err))
		return -1;
	while (l->ofs < size)
		if (emit(l, l->marker, J2_HDR_SIZE, err) ||
		    emit(l, NULL, l->o->cleanmarker_size - J2_HDR_SIZE, err) || pad_block(l, err))
			return -1;
	return 0;
}

int j2_lay_finish(struct j2_lay *l, struct ff_err *err)
{
	int r = l->o->pad < 0 ? pad_block(l, err) : l->o->pad ? pad_to_size(l, err) : 0;

	if (r == 0 && l->fill)
		r = flush_block(l, err);
	if (r == 0 && l->sum)
		r = j2_sum_finish(l->sum, err);
	return r;
}

void j2_lay_free(struct j2_lay *l)
{
	free(l->blk);
	j2_sum_free(l->sum);
	l->blk = NULL;
	l->sum = NULL;
}
