/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A PEB's bytes in the image: in place in a plain image; in a raw NAND
 * dump (pages followed by their OOB) the data parts of its pages, with
 * the bit flips repaired when the dump carries the kernel's software
 * Hamming codes in its OOB (a chip read without ECC: the kernel's own
 * reads would have been corrected), and the bad-block marker. */
#include <errno.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/nand.h"
#include "common/nand_ecc.h"
#include "ubi/reader_priv.h"

/* Pages looked at to decide whether the dump carries Hamming codes: up to
 * ECC_SAMPLE_WRITTEN written ones among the first ECC_SAMPLE_PAGES pages
 * (most are erased in a young image).  A page's 3 code bytes matching its
 * data by chance is 1 in 2^24, so two exact pages decide. */
#define ECC_SAMPLE_PAGES 16384
#define ECC_SAMPLE_WRITTEN 32
#define ECC_MIN_WRITTEN 2

static int pread_all(const struct ff_ubi_image *img, uint32_t peb, uint64_t pos, uint8_t *p,
		     size_t len, struct ff_err *err)
{
	while (len) {
		ssize_t r = ff_bsrc_pread(img->src, p, len, pos);
		if (r <= 0)
			return ff_err_sys(err, r < 0 ? (int)-r : EIO, "PEB %u: read at offset %llu",
					  peb, (unsigned long long)pos);
		p += r;
		len -= (size_t)r;
		pos += (uint64_t)r;
	}
	return 0;
}

/* 2 when every step's code in the page's OOB is the Hamming code of its
 * data, 1 when each step is within a flipped bit of it, 0 when one is
 * beyond, -1 when the page is erased (tells nothing).  raw is changed. */
static int page_codes_match(uint8_t *raw, uint32_t page_size, const uint16_t *pos, size_t n)
{
	unsigned failed = 0, fixed;

	if (ff_all_bytes(raw, page_size, 0xff))
		return -1;
	fixed = ff_nand_hamming_page(raw, page_size, pos, n, &failed);
	return failed ? 0 : fixed ? 1 : 2;
}

/* The dump carries Hamming codes when at least ECC_MIN_WRITTEN written
 * pages among the first ones have their codes exactly right and nearly
 * all the others are within a flipped bit per step (one in ten may be
 * beyond).  Other ECCs (BCH, a controller's) are not recognised, and the
 * dump is read as it is. */
int ff_ubi_ecc_detect(struct ff_ubi_image *img, struct ff_err *err)
{
	uint16_t pos[FF_NAND_HAMMING_MAX_POS];
	size_t n = img->oob_size ? ff_nand_hamming_positions(img->page_size, img->oob_size, pos) : 0;
	uint64_t raw_page = (uint64_t)img->page_size + img->oob_size;
	unsigned exact = 0, near = 0, bad = 0;
	uint8_t *raw;

	if (!n)
		return 0;
	if (!(raw = malloc(raw_page)))
		return ff_err_set(err, ENOMEM, "out of memory");
	for (uint64_t p = 0; p < ECC_SAMPLE_PAGES && exact + near + bad < ECC_SAMPLE_WRITTEN &&
			     (p + 1) * raw_page <= img->size; p++) {
		int m;

		if (pread_all(img, 0, p * raw_page, raw, raw_page, err) < 0) {
			free(raw);
			return -1;
		}
		m = page_codes_match(raw, img->page_size, pos, n);
		exact += m == 2;
		near += m == 1;
		bad += m == 0;
	}
	free(raw);
	if (exact < ECC_MIN_WRITTEN || bad * 10 > exact + near + bad)
		return 0;
	if (!(img->ecc = calloc(1, sizeof(*img->ecc))))
		return ff_err_set(err, ENOMEM, "out of memory");
	memcpy(img->ecc->pos, pos, n * sizeof(pos[0]));
	img->ecc->n = n;
	return 0;
}

/* The part [in, in + len) of one page, read whole with its OOB and
 * repaired.  A step that cannot be repaired is counted and read as it is:
 * the CRCs of what lies there then name it. */
static int read_page_ecc(const struct ff_ubi_image *img, uint32_t peb, uint64_t pos,
			 uint32_t in, uint8_t *p, size_t len, uint8_t *raw, struct ff_err *err)
{
	unsigned failed = 0, fixed;

	if (pread_all(img, peb, pos, raw, (size_t)img->page_size + img->oob_size, err) < 0)
		return -1;
	fixed = ff_nand_hamming_page(raw, img->page_size, img->ecc->pos, img->ecc->n, &failed);
	if (fixed)
		atomic_fetch_add(&img->ecc->corrected, fixed);
	if (failed)
		atomic_fetch_add(&img->ecc->failed, failed);
	memcpy(p, raw + in, len);
	return 0;
}

/* In a raw dump the PEB's bytes are the data parts of its pages: a read
 * is split at page ends and the OOB after each page is stepped over. */
int ff_ubi_read_peb(const struct ff_ubi_image *img, uint32_t peb, uint32_t off, void *buf,
		    size_t len, struct ff_err *err)
{
	uint64_t base = (uint64_t)peb * img->raw_peb;
	uint8_t *p = buf, *raw = NULL;
	int rc = 0;

	if (!img->oob_size)
		return pread_all(img, peb, base + off, p, len, err);
	if (img->ecc && !(raw = malloc((size_t)img->page_size + img->oob_size)))
		return ff_err_set(err, ENOMEM, "out of memory");
	while (len && !rc) {
		uint32_t page = off / img->page_size, in = off % img->page_size;
		size_t n = img->page_size - in < len ? img->page_size - in : len;
		uint64_t pos = base + (uint64_t)page * (img->page_size + img->oob_size);

		rc = raw ? read_page_ecc(img, peb, pos, in, p, n, raw, err)
			 : pread_all(img, peb, pos + in, p, n, err);
		p += n;
		len -= n;
		off += (uint32_t)n;
	}
	free(raw);
	return rc;
}

/* Every page of a good PEB read raw and checked against its codes, for
 * `flashfs check`: reading the file system touches only what it needs. */
long ff_ubi_ecc_check(const struct ff_ubi_image *img, ff_problem_fn fn, void *ctx,
		      struct ff_err *err)
{
	size_t raw_page = (size_t)img->page_size + img->oob_size;
	uint32_t pages;
	uint8_t *raw;
	long bad = 0;

	if (!img->ecc) /* a plain image has no pages (page_size 0) */
		return 0;
	pages = img->raw_peb / (uint32_t)raw_page;
	if (!(raw = malloc(raw_page)))
		return ff_err_set(err, ENOMEM, "out of memory");
	for (uint32_t peb = 0; peb < img->pebs; peb++) {
		int marked = ff_ubi_peb_marked_bad(img, peb, err);

		for (uint32_t pg = 0; !marked && pg < pages; pg++) {
			unsigned failed = 0;
			char what[160];

			if (pread_all(img, peb, (uint64_t)peb * img->raw_peb + (uint64_t)pg * raw_page,
				      raw, raw_page, err) < 0) {
				marked = -1;
				break;
			}
			ff_nand_hamming_page(raw, img->page_size, img->ecc->pos, img->ecc->n, &failed);
			if (!failed)
				continue;
			snprintf(what, sizeof(what), "PEB %u, page %u: %u of its %u-byte steps have more "
				 "flipped bits than the Hamming ECC repairs (read as they are)", peb, pg,
				 failed, FF_NAND_HAMMING_STEP);
			fn(ctx, what);
			bad++;
		}
		if (marked < 0) {
			free(raw);
			return -1;
		}
	}
	free(raw);
	return bad;
}

int ff_ubi_peb_marked_bad(const struct ff_ubi_image *img, uint32_t peb, struct ff_err *err)
{
	uint64_t pos = (uint64_t)peb * img->raw_peb + img->page_size;
	uint8_t oob[1024];
	uint32_t n = img->oob_size < sizeof(oob) ? img->oob_size : (uint32_t)sizeof(oob);

	if (!img->oob_size)
		return 0;
	if (pread_all(img, peb, pos, oob, n, err) < 0)
		return -1;
	return ff_nand_block_marked_bad(oob, n, img->page_size);
}
