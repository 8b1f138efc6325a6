/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The attach scan: every PEB's EC and VID headers, then one winning copy
 * per LEB, as the kernel's attach does it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/problems.h"
#include "ubi/reader_priv.h"

static const char *status_name(enum ff_ubi_hdr_status s)
{
	return s == FF_UBI_HDR_BAD_CRC ? "CRC mismatch"
	       : s == FF_UBI_HDR_ERASED ? "missing (erased)" : "bad magic";
}

/* 0 usable, 1 skip this PEB (problem recorded), -1 out of memory. */
static int check_ec(struct ff_ubi_image *img, uint32_t peb, const uint8_t *hdr)
{
	struct ff_ubi_ec_hdr ec;
	enum ff_ubi_hdr_status s = ff_ubi_ec_hdr_decode(hdr, &ec);

	if (s != FF_UBI_HDR_OK) /* the kernel still trusts a sound VID header */
		return ff_problem_add(&img->problems, "PEB %u: EC header %s", peb, status_name(s));
	if (ec.image_seq != img->image_seq || ec.vid_hdr_offset != img->vid_hdr_offs ||
	    ec.data_offset != img->data_offs) {
		img->bad_pebs++;
		return ff_problem_add(&img->problems,
				      "PEB %u: EC header of another image (sequence %u, "
				      "VID offset %u, data offset %u; expected %u, %u, %u)",
				      peb, ec.image_seq, ec.vid_hdr_offset, ec.data_offset,
				      img->image_seq, img->vid_hdr_offs, img->data_offs) < 0
			       ? -1 : 1;
	}
	if (ec.ec > img->max_ec)
		img->max_ec = ec.ec;
	return 0;
}

static int vid_sane(const struct ff_ubi_image *img, const struct ff_ubi_vid_hdr *v)
{
	if (v->vol_type != FF_UBI_VOL_DYNAMIC && v->vol_type != FF_UBI_VOL_STATIC)
		return 0;
	if (v->vol_id >= FF_UBI_MAX_VOLUMES && v->vol_id != FF_UBI_LAYOUT_VOL_ID)
		return 0;
	if (v->data_pad >= img->leb_size || v->data_size > img->leb_size - v->data_pad)
		return 0;
	if (v->vol_type == FF_UBI_VOL_STATIC && (!v->used_ebs || v->lnum >= v->used_ebs))
		return 0;
	return 1;
}

static int add_leb(struct ff_ubi_image *img, uint32_t peb, const struct ff_ubi_vid_hdr *v)
{
	if (img->n_lebs == img->cap_lebs) {
		size_t cap = img->cap_lebs ? img->cap_lebs * 2 : 64;
		struct ff_ubi_leb *l = realloc(img->lebs, cap * sizeof(*l));
		if (!l)
			return -1;
		img->lebs = l;
		img->cap_lebs = cap;
	}
	img->lebs[img->n_lebs++] = (struct ff_ubi_leb){.peb = peb, .vid = *v};
	return 0;
}

static int scan_peb(struct ff_ubi_image *img, uint32_t peb, struct ff_err *err)
{
	uint8_t *buf = img->peb_buf;
	struct ff_ubi_vid_hdr vid;
	enum ff_ubi_hdr_status ec_s, s;
	int r = ff_ubi_peb_marked_bad(img, peb, err);

	if (r) { /* a bad block in a raw dump: not UBI's, nothing to report */
		img->marked_bad += r > 0;
		img->bad_pebs += r > 0;
		return r < 0 ? -1 : 0;
	}
	if (ff_ubi_read_peb(img, peb, 0, buf, img->data_offs, err) < 0)
		return -1;
	ec_s = ff_ubi_ec_hdr_decode(buf, &(struct ff_ubi_ec_hdr){0});
	s = ff_ubi_vid_hdr_decode(buf + img->vid_hdr_offs, &vid);
	if (ec_s == FF_UBI_HDR_ERASED && s == FF_UBI_HDR_ERASED) {
		if (ff_ubi_read_peb(img, peb, img->data_offs, buf, img->leb_size, err) < 0)
			return -1;
		if (ff_ubi_is_erased(buf, img->leb_size)) {
			img->erased_pebs++;
			return 0;
		}
		img->bad_pebs++;
		return ff_problem_add(&img->problems, "PEB %u: no headers but data written", peb);
	}
	r = check_ec(img, peb, buf);
	if (r)
		return r < 0 ? -1 : 0;
	if (s == FF_UBI_HDR_ERASED && ec_s == FF_UBI_HDR_OK) {
		img->erased_pebs++; /* formatted and free */
		return 0;
	}
	if (s != FF_UBI_HDR_OK || !vid_sane(img, &vid)) {
		img->bad_pebs++;
		return ff_problem_add(&img->problems, "PEB %u: VID header %s", peb,
				      s == FF_UBI_HDR_OK ? "with impossible values"
							 : status_name(s));
	}
	return add_leb(img, peb, &vid);
}

static int leb_cmp(const void *a, const void *b)
{
	const struct ff_ubi_leb *x = a, *y = b;

	if (x->vid.vol_id != y->vid.vol_id)
		return x->vid.vol_id < y->vid.vol_id ? -1 : 1;
	if (x->vid.lnum != y->vid.lnum)
		return x->vid.lnum < y->vid.lnum ? -1 : 1;
	if (x->vid.sqnum != y->vid.sqnum)
		return x->vid.sqnum > y->vid.sqnum ? -1 : 1; /* newest first */
	return x->peb < y->peb ? -1 : x->peb > y->peb;
}

/* A copy made by wear-leveling or a torn write is only good when its data
 * CRC holds; an original write is trusted as the kernel trusts it. */
static int copy_ok(struct ff_ubi_image *img, const struct ff_ubi_leb *l, struct ff_err *err)
{
	if (!l->vid.copy_flag)
		return 1;
	if (ff_ubi_read_peb(img, l->peb, img->data_offs, img->peb_buf, l->vid.data_size, err) < 0)
		return -1;
	return ff_ubi_crc32(img->peb_buf, l->vid.data_size) == l->vid.data_crc;
}

/* Keeps the newest good copy of each LEB. */
static int pick_newest(struct ff_ubi_image *img, struct ff_err *err)
{
	size_t out = 0, i = 0;

	if (img->n_lebs) /* qsort wants a non-NULL array even for 0 */
		qsort(img->lebs, img->n_lebs, sizeof(*img->lebs), leb_cmp);
	while (i < img->n_lebs) {
		size_t j = i, won = SIZE_MAX;
		for (; j < img->n_lebs && img->lebs[j].vid.vol_id == img->lebs[i].vid.vol_id &&
		       img->lebs[j].vid.lnum == img->lebs[i].vid.lnum; j++) {
			const struct ff_ubi_leb *l = &img->lebs[j];
			int ok = won == SIZE_MAX ? copy_ok(img, l, err) : 0;
			if (ok < 0)
				return -1;
			if (ok)
				won = j;
			else if (won == SIZE_MAX &&
				 ff_problem_add(&img->problems,
						"PEB %u: volume %u LEB %u: copy with bad "
						"data CRC, an older copy is used", l->peb,
						l->vid.vol_id, l->vid.lnum) < 0)
				return ff_err_set(err, ENOMEM, "out of memory");
			if (won != SIZE_MAX && j != won)
				img->old_copies++;
		}
		if (won != SIZE_MAX)
			img->lebs[out++] = img->lebs[won];
		i = j;
	}
	img->n_lebs = out;
	return 0;
}

int ff_ubi_scan(struct ff_ubi_image *img, struct ff_err *err)
{
	if (err)
		ff_err_clear(err);
	for (uint32_t peb = 0; peb < img->pebs; peb++)
		if (scan_peb(img, peb, err) < 0) /* a read error, or no memory for a problem */
			return err && err->msg[0] ? -1 : ff_err_set(err, ENOMEM, "out of memory");
	return pick_newest(img, err);
}

const struct ff_ubi_leb *ff_ubi_find_leb(const struct ff_ubi_image *img, uint32_t vol_id,
					 uint32_t lnum)
{
	size_t lo = 0, hi = img->n_lebs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ff_ubi_vid_hdr *v = &img->lebs[mid].vid;
		if (v->vol_id < vol_id || (v->vol_id == vol_id && v->lnum < lnum))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < img->n_lebs && img->lebs[lo].vid.vol_id == vol_id &&
	    img->lebs[lo].vid.lnum == lnum)
		return &img->lebs[lo];
	return NULL;
}
