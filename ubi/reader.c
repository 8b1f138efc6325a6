/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Opening and closing a scanned UBI image; the problem list; the summary. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/problems.h"
#include "ubi/reader_priv.h"

int ff_ubi_probe(const uint8_t *buf, size_t len)
{
	return len >= 4 && buf[0] == 'U' && buf[1] == 'B' && buf[2] == 'I' && buf[3] == '#';
}

/* Back to the state before a layout was tried. */
static void reset(struct ff_ubi_image *img)
{
	ff_problem_list_free(&img->problems);
	free(img->lebs);
	free(img->vols);
	free(img->peb_buf);
	free(img->ecc);
	*img = (struct ff_ubi_image){.src = img->src, .size = img->size};
}

static int try_layout(struct ff_ubi_image *img, const struct ff_ubi_layout *l, uint32_t peb_size,
		      struct ff_err *err)
{
	reset(img);
	img->page_size = l->page_size;
	img->oob_size = l->oob_size;
	return ff_ubi_ecc_detect(img, err) < 0 ||
			       ff_ubi_detect_geometry(img, peb_size, err) < 0 || ff_ubi_scan(img, err) < 0 ||
			       ff_ubi_read_vtbl(img, err) < 0 || ff_ubi_volumes_finish(img, err) < 0
		       ? -1 : 0;
}

/* Each layout in turn until one reads a sound volume table; the first
 * one's error otherwise. */
static int open_layouts(struct ff_ubi_image *img, const struct ff_ubi_hint *hint,
			struct ff_err *err)
{
	struct ff_ubi_layout ls[FF_UBI_MAX_LAYOUTS];
	size_t n = ff_ubi_layouts(img, hint, ls);
	uint32_t peb_size = hint ? hint->peb_size : 0;
	struct ff_err first = {0};

	for (size_t i = 0; i < n; i++) {
		struct ff_err e = {0};
		if (try_layout(img, &ls[i], peb_size, &e) == 0)
			return 0;
		if (!i || e.code == ENOMEM)
			first = e;
		if (e.code == ENOMEM)
			break;
	}
	if (err)
		*err = first;
	if (!ls[0].score && (!hint || (!hint->page_size && !hint->oob_size)))
		ff_err_prefix(err, "no VID header read as a plain image, nor as a NAND dump "
			      "of the usual page and OOB sizes (give them if they differ)");
	return -1;
}

int ff_ubi_open(struct ff_bsrc *src, const struct ff_ubi_hint *hint, struct ff_ubi_image **out,
		struct ff_err *err)
{
	struct ff_ubi_image *img = calloc(1, sizeof(*img));

	*out = NULL;
	if (!img)
		return ff_err_set(err, ENOMEM, "out of memory");
	img->src = ff_bsrc_ref(src);
	img->size = src->size;
	if (open_layouts(img, hint, err) < 0) {
		ff_ubi_close(img);
		return -1;
	}
	*out = img;
	return 0;
}

void ff_ubi_close(struct ff_ubi_image *img)
{
	if (!img)
		return;
	reset(img);
	ff_bsrc_unref(img->src);
	free(img);
}

size_t ff_ubi_problem_count(const struct ff_ubi_image *img)
{
	return ff_problem_kept(&img->problems);
}

const char *ff_ubi_problem(const struct ff_ubi_image *img, size_t i)
{
	const struct ff_problem *p = ff_problem_at(&img->problems, i);

	return p ? p->msg : NULL;
}

void ff_ubi_summary(const struct ff_ubi_image *img, struct ff_ubi_summary *s)
{
	*s = (struct ff_ubi_summary){
		.peb_size = img->peb_size, .leb_size = img->leb_size,
		.vid_hdr_offs = img->vid_hdr_offs, .data_offs = img->data_offs,
		.image_seq = img->image_seq, .version = img->version, .pebs = img->pebs,
		.used_pebs = (uint32_t)img->n_lebs, .erased_pebs = img->erased_pebs,
		.bad_pebs = img->bad_pebs, .old_copies = img->old_copies, .max_ec = img->max_ec,
		.page_size = img->oob_size ? img->page_size : 0, .oob_size = img->oob_size,
		.marked_bad = img->marked_bad,
		.ecc = img->ecc ? "hamming" : NULL,
		.ecc_corrected = img->ecc ? atomic_load(&img->ecc->corrected) : 0,
		.ecc_failed = img->ecc ? atomic_load(&img->ecc->failed) : 0,
		.image_bytes = img->size,
	};
}
