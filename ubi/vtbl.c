/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The volume table, read from the layout volume's two LEBs.  A record is
 * checked as the kernel checks it; the first sound copy is used, and a
 * copy that is damaged or differs is reported. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubi/reader_priv.h"

static uint32_t table_records(const struct ff_ubi_image *img)
{
	uint32_t n = img->leb_size / FF_UBI_VTBL_RECORD_SIZE;

	return n > FF_UBI_MAX_VOLUMES ? FF_UBI_MAX_VOLUMES : n;
}

/* NULL when the record is sound, else what is wrong with it. */
static const char *record_problem(const struct ff_ubi_image *img, const uint8_t *raw,
				  const struct ff_ubi_vtbl_record *r)
{
	static const struct ff_ubi_vtbl_record empty;
	uint8_t zero[FF_UBI_VTBL_RECORD_SIZE];

	if (!r->reserved_pebs) {
		ff_ubi_vtbl_record_encode(&empty, zero);
		return memcmp(zero, raw, sizeof(zero)) ? "empty slot not zeroed" : NULL;
	}
	if (!r->alignment || r->alignment >= img->leb_size ||
	    r->data_pad != img->leb_size % r->alignment)
		return "alignment and data_pad do not fit the LEB size";
	if (r->vol_type != FF_UBI_VOL_DYNAMIC && r->vol_type != FF_UBI_VOL_STATIC)
		return "unknown volume type";
	if (r->upd_marker > 1)
		return "update marker neither 0 nor 1";
	if (!r->name_len || ff_get_be16(raw + 14) > FF_UBI_VOL_NAME_MAX ||
	    strnlen((const char *)raw + 16, FF_UBI_VOL_NAME_MAX + 1) != r->name_len)
		return "name length does not match the name";
	return NULL;
}

/* Decodes one copy into recs; the number of bad records, or -1. */
static int decode_copy(struct ff_ubi_image *img, const struct ff_ubi_leb *l, uint8_t *raw,
		       struct ff_ubi_vtbl_record *recs, struct ff_err *err)
{
	uint32_t n = table_records(img);
	int bad = 0;

	if (ff_ubi_read_peb(img, l->peb, img->data_offs, raw, (size_t)n * FF_UBI_VTBL_RECORD_SIZE,
			    err) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *p = raw + (size_t)i * FF_UBI_VTBL_RECORD_SIZE;
		const char *why = ff_ubi_vtbl_record_decode(p, &recs[i]) < 0
					  ? "CRC mismatch" : record_problem(img, p, &recs[i]);
		if (why && ++bad &&
		    ff_problem_add(&img->problems, "PEB %u: volume table copy %u, record %u: %s",
				   l->peb, l->vid.lnum, i, why) < 0)
			return ff_err_set(err, ENOMEM, "out of memory");
	}
	return bad;
}

static int add_volumes(struct ff_ubi_image *img, const struct ff_ubi_vtbl_record *recs,
		       struct ff_err *err)
{
	uint32_t n = table_records(img);

	img->vols = calloc(n, sizeof(*img->vols));
	if (!img->vols)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		const struct ff_ubi_vtbl_record *r = &recs[i];
		struct ff_ubi_volume *v = &img->vols[img->n_vols];
		if (!r->reserved_pebs)
			continue;
		*v = (struct ff_ubi_volume){
			.id = i, .type = r->vol_type, .flags = r->flags,
			.upd_marker = r->upd_marker, .reserved_pebs = r->reserved_pebs,
			.alignment = r->alignment, .data_pad = r->data_pad,
			.usable_leb = img->leb_size - r->data_pad,
		};
		memcpy(v->name, r->name, sizeof(v->name));
		img->n_vols++;
	}
	return 0;
}

static int pick_copy(struct ff_ubi_image *img, uint8_t *raw, struct ff_ubi_vtbl_record *recs,
		     struct ff_err *err)
{
	size_t sz = (size_t)table_records(img) * FF_UBI_VTBL_RECORD_SIZE;
	const struct ff_ubi_leb *c0 = ff_ubi_find_leb(img, FF_UBI_LAYOUT_VOL_ID, 0);
	const struct ff_ubi_leb *c1 = ff_ubi_find_leb(img, FF_UBI_LAYOUT_VOL_ID, 1);
	int bad0 = c0 ? decode_copy(img, c0, raw, recs, err) : 1, bad1;

	if (bad0 < 0)
		return -1;
	if (!c1)
		bad1 = 1;
	else if ((bad1 = decode_copy(img, c1, raw + sz, recs + FF_UBI_MAX_VOLUMES, err)) < 0)
		return -1;
	if (!c0 || !c1)
		ff_problem_add(&img->problems, "volume table copy %d is missing", c0 ? 1 : 0);
	else if (!bad0 && !bad1 && memcmp(raw, raw + sz, sz))
		ff_problem_add(&img->problems,
			       "PEB %u and PEB %u: the two volume table copies differ",
			       c0->peb, c1->peb);
	if (bad0 && bad1)
		return ff_err_set(err, EINVAL, "no sound volume table (layout volume) found");
	if (bad0)
		memcpy(recs, recs + FF_UBI_MAX_VOLUMES, FF_UBI_MAX_VOLUMES * sizeof(*recs));
	return 0;
}

int ff_ubi_read_vtbl(struct ff_ubi_image *img, struct ff_err *err)
{
	uint8_t *raw = malloc(2 * (size_t)FF_UBI_MAX_VOLUMES * FF_UBI_VTBL_RECORD_SIZE);
	struct ff_ubi_vtbl_record *recs = calloc(2 * FF_UBI_MAX_VOLUMES, sizeof(*recs));
	int rc = -1;

	if (!raw || !recs)
		ff_err_set(err, ENOMEM, "out of memory");
	else if (pick_copy(img, raw, recs, err) == 0)
		rc = add_volumes(img, recs, err);
	free(raw);
	free(recs);
	return rc;
}
