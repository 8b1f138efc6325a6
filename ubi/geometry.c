/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Where the headers and data sit in a PEB.  The EC header takes the first
 * sub-page (NAND allows a partial write of one), the VID header the next
 * sub-page unless told otherwise, and data starts at the first min. I/O
 * unit after it, because data is written in whole pages. */
#include <errno.h>

#include "ubi/writer.h"

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

static int check_sizes(uint32_t peb, uint32_t min_io, uint32_t subpage, struct ff_err *err)
{
	if (!peb || peb > FF_UBI_MAX_PEB_SIZE)
		return ff_err_set(err, EINVAL, "PEB size %u is not from 1 to %u bytes", peb,
				  FF_UBI_MAX_PEB_SIZE);
	if (!is_pow2(min_io))
		return ff_err_set(err, EINVAL, "min. I/O size %u is not a power of two", min_io);
	if (!is_pow2(subpage))
		return ff_err_set(err, EINVAL, "sub-page size %u is not a power of two", subpage);
	if (subpage > min_io)
		return ff_err_set(err, EINVAL, "sub-page size %u is larger than the min. I/O "
				  "size %u", subpage, min_io);
	if (peb % min_io)
		return ff_err_set(err, EINVAL, "PEB size %u is not a multiple of the min. I/O "
				  "size %u", peb, min_io);
	return 0;
}

int ff_ubi_geom_init(struct ff_ubi_geom *g, uint32_t peb_size, uint32_t min_io,
		     uint32_t subpage, uint32_t vid_hdr_offs, struct ff_err *err)
{
	if (!subpage)
		subpage = min_io;
	if (check_sizes(peb_size, min_io, subpage, err) < 0)
		return -1;
	if (!vid_hdr_offs)
		vid_hdr_offs = align_up(FF_UBI_HDR_SIZE, subpage);
	if (vid_hdr_offs < FF_UBI_HDR_SIZE || vid_hdr_offs % 8 ||
	    (uint64_t)vid_hdr_offs + FF_UBI_HDR_SIZE >= peb_size)
		return ff_err_set(err, EINVAL, "VID header offset %u is not a multiple of 8 from "
				  "%u to %u", vid_hdr_offs, FF_UBI_HDR_SIZE,
				  peb_size > 2 * FF_UBI_HDR_SIZE ? peb_size - FF_UBI_HDR_SIZE - 1 : 0);
	g->peb_size = peb_size;
	g->min_io = min_io;
	g->subpage = subpage;
	g->vid_hdr_offs = vid_hdr_offs;
	g->data_offs = align_up(vid_hdr_offs + FF_UBI_HDR_SIZE, min_io);
	if (g->data_offs >= peb_size)
		return ff_err_set(err, EINVAL, "no room for data: data offset %u, PEB size %u",
				  g->data_offs, peb_size);
	g->leb_size = peb_size - g->data_offs;
	g->max_volumes = g->leb_size / FF_UBI_VTBL_RECORD_SIZE;
	if (g->max_volumes > FF_UBI_MAX_VOLUMES)
		g->max_volumes = FF_UBI_MAX_VOLUMES;
	if (!g->max_volumes)
		return ff_err_set(err, EINVAL, "LEB size %u holds no volume-table record",
				  g->leb_size);
	return 0;
}

uint32_t ff_ubi_usable_leb(const struct ff_ubi_geom *g, uint32_t alignment)
{
	return g->leb_size - g->leb_size % alignment;
}
