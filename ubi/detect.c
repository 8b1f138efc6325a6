/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The geometry of an image to read, from its EC headers: they give the
 * VID header and data offsets, and the distance between two of them the
 * PEB size.  In a raw NAND dump (each page followed by its OOB, as
 * `nanddump -o` writes) an EC header starts a page and two of them are a
 * power-of-two number of pages apart, each page counted with its OOB.
 * Which layout an image has is found by trying them: plain, then the
 * common page and OOB sizes (common/nand.h), ranked by the VID headers each
 * reads soundly; the caller keeps the first whose volume table is sound. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/nand.h"
#include "common/problems.h"
#include "ubi/reader_priv.h"

#define PEB_SEARCH_MAX (16u << 20) /* largest eraseblock looked for */
#define SEARCH_STEP 512u           /* EC headers start on a 512-byte unit */
#define SCORE_PEBS 64u             /* PEBs whose VID headers rank a layout */

static uint64_t raw_page(const struct ff_ubi_image *img)
{
	return (uint64_t)img->page_size + img->oob_size;
}

/* The EC header at file offset off (from the image start). */
static int ec_at(struct ff_ubi_image *img, uint64_t off, struct ff_ubi_ec_hdr *h)
{
	uint8_t buf[FF_UBI_HDR_SIZE];

	if (off + sizeof(buf) > img->size)
		return -1;
	if (ff_bsrc_pread(img->src, buf, sizeof(buf), off) != (ssize_t)sizeof(buf))
		return -1;
	return ff_ubi_ec_hdr_decode(buf, h) == FF_UBI_HDR_OK ? 0 : -1;
}

static int same_image(const struct ff_ubi_ec_hdr *a, const struct ff_ubi_ec_hdr *b)
{
	return a->image_seq == b->image_seq && a->vid_hdr_offset == b->vid_hdr_offset &&
	       a->data_offset == b->data_offset;
}

/* The PEB size: the distance between the first two EC headers of this
 * image (a dump may start with a bad, erased or foreign PEB).  Sets
 * img->raw_peb, returns the PEB's data bytes, or 0. */
static uint32_t find_peb_size(struct ff_ubi_image *img, uint64_t first,
			      const struct ff_ubi_ec_hdr *ref)
{
	struct ff_ubi_ec_hdr h;

	if (img->oob_size) {
		for (uint64_t ppb = 2; ppb * img->page_size <= PEB_SEARCH_MAX; ppb *= 2) {
			uint64_t d = ppb * raw_page(img);
			if (ppb * img->page_size > ref->data_offset && first % d == 0 &&
			    ec_at(img, first + d, &h) == 0 && same_image(ref, &h)) {
				img->raw_peb = (uint32_t)d;
				return (uint32_t)(ppb * img->page_size);
			}
		}
		return 0;
	}
	for (uint64_t d = SEARCH_STEP; d <= PEB_SEARCH_MAX && first + d < img->size;
	     d += SEARCH_STEP)
		if (d > ref->data_offset && first % d == 0 && ec_at(img, first + d, &h) == 0 &&
		    same_image(ref, &h)) {
			img->raw_peb = (uint32_t)d;
			return (uint32_t)d;
		}
	return 0;
}

/* The first EC header, at a page start in a raw dump. */
static int find_first(struct ff_ubi_image *img, struct ff_ubi_ec_hdr *ref, uint64_t *first)
{
	uint64_t step = img->oob_size ? raw_page(img) : SEARCH_STEP;
	uint64_t limit = img->oob_size ? PEB_SEARCH_MAX / img->page_size * step : PEB_SEARCH_MAX;

	for (*first = 0; *first < limit; *first += step)
		if (ec_at(img, *first, ref) == 0)
			return 0;
	return -1;
}

static int find_geometry(struct ff_ubi_image *img, uint32_t peb_size, struct ff_err *err)
{
	struct ff_ubi_ec_hdr ref;
	uint64_t first;

	if (find_first(img, &ref, &first) < 0)
		return ff_err_set(err, EINVAL, "no valid UBI EC header in the first %u MiB",
				  PEB_SEARCH_MAX >> 20);
	if (peb_size && img->oob_size && peb_size % img->page_size)
		return ff_err_set(err, EINVAL, "PEB size %u is not a multiple of the page size %u",
				  peb_size, img->page_size);
	if (peb_size)
		img->raw_peb = img->oob_size ? (uint32_t)(peb_size / img->page_size * raw_page(img))
					     : peb_size;
	else
		peb_size = find_peb_size(img, first, &ref);
	if (!peb_size)
		return ff_err_set(err, EINVAL, "cannot tell the PEB size: no second EC header of "
				  "image sequence %u found", ref.image_seq);
	if (ref.vid_hdr_offset < FF_UBI_HDR_SIZE ||
	    (uint64_t)ref.vid_hdr_offset + FF_UBI_HDR_SIZE > ref.data_offset ||
	    ref.data_offset >= peb_size || first % img->raw_peb)
		return ff_err_set(err, EINVAL, "EC header at %llu: VID header offset %u, data "
				  "offset %u do not fit a PEB of %u bytes",
				  (unsigned long long)first, ref.vid_hdr_offset, ref.data_offset,
				  peb_size);
	img->peb_size = peb_size;
	img->vid_hdr_offs = ref.vid_hdr_offset;
	img->data_offs = ref.data_offset;
	img->leb_size = peb_size - ref.data_offset;
	img->image_seq = ref.image_seq;
	img->version = ref.version;
	img->pebs = (uint32_t)(img->size / img->raw_peb);
	return 0;
}

int ff_ubi_detect_geometry(struct ff_ubi_image *img, uint32_t peb_size, struct ff_err *err)
{
	if (find_geometry(img, peb_size, err) < 0)
		return -1;
	img->peb_buf = malloc(img->peb_size);
	if (!img->peb_buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (img->size % img->raw_peb &&
	    ff_problem_add(&img->problems,
			   "image size %llu is not a multiple of the PEB size %u: the "
			   "last %llu bytes are ignored", (unsigned long long)img->size,
			   img->raw_peb, (unsigned long long)(img->size % img->raw_peb)) < 0)
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Sound VID headers among the first PEBs under the layout in img. */
static uint32_t score(struct ff_ubi_image *img, uint32_t peb_size)
{
	uint8_t hdr[FF_UBI_HDR_SIZE];
	struct ff_ubi_vid_hdr vid;
	uint32_t n = 0;

	if (find_geometry(img, peb_size, NULL) < 0)
		return 0;
	for (uint32_t peb = 0; peb < img->pebs && peb < SCORE_PEBS; peb++)
		if (ff_ubi_read_peb(img, peb, img->vid_hdr_offs, hdr, sizeof(hdr), NULL) == 0 &&
		    ff_ubi_vid_hdr_decode(hdr, &vid) == FF_UBI_HDR_OK)
			n++;
	return n;
}

/* The layouts a hint allows: plain and every common page + OOB size when
 * it names neither, else the page and OOB sizes it names or implies. */
static size_t candidates(const struct ff_ubi_hint *hint, struct ff_ubi_layout *out)
{
	uint32_t hp = hint ? hint->page_size : 0, ho = hint ? hint->oob_size : 0;
	size_t n = 0, np;
	const uint32_t *pages = ff_nand_page_sizes(&np);

	if (!hp && !ho)
		out[n++] = (struct ff_ubi_layout){0};
	for (size_t i = 0; i < (hp ? 1 : np); i++) {
		uint32_t page = hp ? hp : pages[i], oobs[2];
		size_t no = ho ? 1 : ff_nand_oob_sizes(page, oobs);
		for (size_t j = 0; j < no && n < FF_UBI_MAX_LAYOUTS; j++)
			out[n++] = (struct ff_ubi_layout){page, ho ? ho : oobs[j], 0};
	}
	return n;
}

size_t ff_ubi_layouts(struct ff_ubi_image *img, const struct ff_ubi_hint *hint,
		      struct ff_ubi_layout *out)
{
	size_t n = candidates(hint, out), kept = 0;

	for (size_t i = 0; i < n; i++) {
		img->page_size = out[i].page_size;
		img->oob_size = out[i].oob_size;
		out[i].score = score(img, hint ? hint->peb_size : 0);
	}
	/* best first, stable: plain before raw and the common sizes first */
	for (size_t i = 0; i < n; i++) {
		struct ff_ubi_layout l = out[i];
		size_t j = kept;
		if (!l.score)
			continue;
		while (j > 0 && out[j - 1].score < l.score) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = l;
		kept++;
	}
	return kept ? kept : 1; /* none reads: the first, for its error message */
}
