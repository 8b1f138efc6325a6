/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/oob_layout.h"

#include "yaffs2/obj_header.h"

#include <errno.h>
#include <string.h>

/* The layouts below follow the Linux raw-NAND defaults: small pages (OOB 8
 * or 16) use the small-page layout, 64- and 128-byte OOBs with Hamming the
 * "large page Hamming" layout (ECC at 40 / 80), everything else the generic
 * large-page layout (bad-block marker in bytes 0-1, ECC at the end). */

static void add_region(struct ff_y2_region *r, uint32_t *n, uint32_t off, uint32_t len)
{
	if (len && *n < FF_Y2_MAX_REGIONS) {
		r[*n].offset = off;
		r[*n].len = len;
		(*n)++;
	}
}

static void ecc_params(struct ff_y2_layout *lay)
{
	switch (lay->ecc) {
	case FF_Y2_ECC_BCH4:
		lay->ecc_step = 512;
		lay->ecc_bytes = 7; /* 13 bits x 4, rounded up to bytes */
		break;
	case FF_Y2_ECC_BCH8:
		lay->ecc_step = 512;
		lay->ecc_bytes = 13;
		break;
	default:
		lay->ecc_step = 256;
		lay->ecc_bytes = 3;
		break;
	}
}

static int small_page_regions(struct ff_y2_layout *lay, uint32_t total)
{
	uint32_t oob = lay->geom.oob_size;

	add_region(lay->ecc_regions, &lay->n_ecc_regions, 0, oob == 16 ? 4 : 3);
	if (oob == 16) {
		add_region(lay->ecc_regions, &lay->n_ecc_regions, 6, total - 4);
		add_region(lay->mtd_free, &lay->n_mtd_free, 8, 8);
	} else {
		add_region(lay->mtd_free, &lay->n_mtd_free, 3, 2);
		add_region(lay->mtd_free, &lay->n_mtd_free, 6, 2);
	}
	return 0;
}

static int large_page_regions(struct ff_y2_layout *lay, uint32_t total, struct ff_err *err)
{
	uint32_t oob = lay->geom.oob_size;
	uint32_t ecc_off;

	if (lay->ecc == FF_Y2_ECC_HAMMING && (oob == 64 || oob == 128)) {
		ecc_off = oob == 64 ? 40 : 80;
		if (ecc_off + total > oob)
			goto too_small;
		add_region(lay->mtd_free, &lay->n_mtd_free, 2, ecc_off - 2);
		add_region(lay->ecc_regions, &lay->n_ecc_regions, ecc_off, total);
		add_region(lay->mtd_free, &lay->n_mtd_free, ecc_off + total,
			   oob - ecc_off - total);
		return 0;
	}
	if (total + 2 > oob)
		goto too_small;
	add_region(lay->mtd_free, &lay->n_mtd_free, 2, oob - total - 2);
	add_region(lay->ecc_regions, &lay->n_ecc_regions, oob - total, total);
	return 0;
too_small:
	return ff_err_set(err, EINVAL, "OOB size %u: too small for %u %s ECC bytes", oob,
			  total, ff_y2_ecc_name(lay->ecc));
}

static int mtd_regions(struct ff_y2_layout *lay, struct ff_err *err)
{
	uint32_t total;

	ecc_params(lay);
	total = lay->geom.page_size / lay->ecc_step * lay->ecc_bytes;
	lay->n_mtd_free = lay->n_ecc_regions = 0;
	if (lay->geom.oob_size == 0)
		return 0;
	if (lay->geom.oob_size <= 16) {
		if (lay->ecc != FF_Y2_ECC_HAMMING || lay->geom.page_size != 512)
			return ff_err_set(err, EINVAL,
					  "OOB size %u: small-page layout needs 512-byte pages"
					  " and Hamming ECC", lay->geom.oob_size);
		return small_page_regions(lay, total);
	}
	return large_page_regions(lay, total, err);
}

static int parse_kind(const char *s, enum ff_y2_layout_kind *k, struct ff_err *err)
{
	if (!s || !strcmp(s, "linux"))
		*k = FF_Y2_LAYOUT_LINUX;
	else if (!strcmp(s, "offset0"))
		*k = FF_Y2_LAYOUT_OFFSET0;
	else if (!strcmp(s, "inband"))
		*k = FF_Y2_LAYOUT_INBAND;
	else
		return ff_err_set(err, EINVAL, "OOB layout '%s': expected linux, offset0 or inband",
				  s);
	return 0;
}

static int parse_ecc(const char *s, enum ff_y2_ecc_kind *e, struct ff_err *err)
{
	if (!s || !strcmp(s, "hamming"))
		*e = FF_Y2_ECC_HAMMING;
	else if (!strcmp(s, "bch4"))
		*e = FF_Y2_ECC_BCH4;
	else if (!strcmp(s, "bch8"))
		*e = FF_Y2_ECC_BCH8;
	else
		return ff_err_set(err, EINVAL, "ECC '%s': expected hamming, bch4 or bch8", s);
	return 0;
}

/* The Linux yaffs2 driver mounts a chip with tags in the OOB only when its
 * pages have at least YAFFS_MIN_YAFFS2_CHUNK_SIZE (1024) bytes and
 * YAFFS_MIN_YAFFS2_SPARE_SIZE (32) OOB bytes; below that only with the
 * inband-tags mount option (yaffs_guts_ll_init checks the 1024 only
 * without inband tags).  Inband tags take 16 bytes of each page, so a
 * 512-byte page keeps 496 data bytes and object headers are stored
 * truncated (obj_header.h). */
#define KERNEL_MIN_PAGE 1024u
#define KERNEL_MIN_OOB 32u

static int kernel_limits(const struct ff_y2_layout *lay, struct ff_err *err)
{
	const struct ff_y2_geom *g = &lay->geom;

	if (lay->kind != FF_Y2_LAYOUT_INBAND &&
	    (g->page_size < KERNEL_MIN_PAGE || g->oob_size < KERNEL_MIN_OOB))
		return ff_err_set(err, EINVAL,
				  "page size %u + OOB %u with %s tags: the Linux yaffs2 driver"
				  " needs pages of at least %u bytes with at least %u OOB bytes for"
				  " tags in the OOB (YAFFS_MIN_YAFFS2_CHUNK_SIZE,"
				  " YAFFS_MIN_YAFFS2_SPARE_SIZE); smaller chips only with inband tags",
				  g->page_size, g->oob_size, ff_y2_layout_name(lay->kind),
				  KERNEL_MIN_PAGE, KERNEL_MIN_OOB);
	return 0;
}

int ff_y2_layout_init(struct ff_y2_layout *lay, const struct ff_y2_geom *geom,
		      const char *kind, const char *ecc, int tags_ecc, struct ff_err *err)
{
	memset(lay, 0, sizeof(*lay));
	lay->geom = *geom;
	if (ff_y2_geom_check(geom, err) || parse_kind(kind, &lay->kind, err) ||
	    parse_ecc(ecc, &lay->ecc, err))
		return -1;
	/* The MTD view matters to the linux layout only: tags at OOB offset 0
	 * (mkyaffs2image's 4096+32 pages) need no room for the driver's ECC. */
	if (mtd_regions(lay, err)) {
		if (lay->kind == FF_Y2_LAYOUT_LINUX)
			return -1;
		lay->n_mtd_free = lay->n_ecc_regions = 0;
		ff_err_clear(err);
	}
	lay->tags_size = tags_ecc ? FF_Y2_TAGS_SIZE_ECC : FF_Y2_TAGS_SIZE_PLAIN;
	for (uint32_t i = 0; i < lay->n_mtd_free; i++)
		lay->mtd_free_bytes += lay->mtd_free[i].len;
	if (lay->kind == FF_Y2_LAYOUT_LINUX && lay->mtd_free_bytes < lay->tags_size) {
		/* The kernel's yaffs switches to inband tags when the OOB
		 * cannot hold them. */
		lay->kind = FF_Y2_LAYOUT_INBAND;
		lay->fallback = 1;
	}
	if (kernel_limits(lay, err))
		return -1;
	if (lay->kind == FF_Y2_LAYOUT_OFFSET0 && geom->oob_size < lay->tags_size)
		return ff_err_set(err, EINVAL, "OOB size %u: too small for %u bytes of tags",
				  geom->oob_size, lay->tags_size);
	if (lay->kind == FF_Y2_LAYOUT_INBAND) {
		lay->tags_size = FF_Y2_TAGS_SIZE_PLAIN;
		lay->chunk_bytes = geom->page_size - FF_Y2_TAGS_SIZE_PLAIN;
		lay->raw_page = geom->page_size;
	} else {
		lay->chunk_bytes = geom->page_size;
		lay->raw_page = geom->page_size + geom->oob_size;
	}
	if (lay->chunk_bytes < FF_Y2_OBJ_HEADER_MIN)
		return ff_err_set(err, EINVAL,
				  "page size %u with %s tags: %u data bytes per chunk, less than"
				  " the %u bytes of an object header the driver keeps",
				  geom->page_size, ff_y2_layout_name(lay->kind), lay->chunk_bytes,
				  FF_Y2_OBJ_HEADER_MIN);
	return 0;
}

const char *ff_y2_layout_name(enum ff_y2_layout_kind kind)
{
	switch (kind) {
	case FF_Y2_LAYOUT_OFFSET0:
		return "offset0";
	case FF_Y2_LAYOUT_INBAND:
		return "inband";
	default:
		return "linux";
	}
}

const char *ff_y2_ecc_name(enum ff_y2_ecc_kind ecc)
{
	switch (ecc) {
	case FF_Y2_ECC_BCH4:
		return "bch4";
	case FF_Y2_ECC_BCH8:
		return "bch8";
	default:
		return "hamming";
	}
}

/* n bytes into the page when to_page, out of it otherwise. */
static void copy_bytes(uint8_t *page_at, uint8_t *flat, uint32_t n, int to_page)
{
	memcpy(to_page ? page_at : flat, to_page ? flat : page_at, n);
}

/* The tags between a raw page and a flat buffer, where the layout keeps
 * them: one walk serves reading and writing, so the places the tags go to
 * and come from cannot drift apart. */
static void move_tags(const struct ff_y2_layout *lay, uint8_t *raw_page, uint8_t *tags,
		      int to_page)
{
	uint8_t *oob = raw_page + lay->geom.page_size;
	uint32_t n = lay->tags_size, done = 0;

	switch (lay->kind) {
	case FF_Y2_LAYOUT_INBAND:
		copy_bytes(raw_page + lay->chunk_bytes, tags, n, to_page);
		break;
	case FF_Y2_LAYOUT_OFFSET0:
		copy_bytes(oob, tags, n, to_page);
		break;
	default: /* the free regions of the OOB, in order */
		for (uint32_t i = 0; i < lay->n_mtd_free && done < n; i++) {
			uint32_t len = lay->mtd_free[i].len;

			if (len > n - done)
				len = n - done;
			copy_bytes(oob + lay->mtd_free[i].offset, tags + done, len, to_page);
			done += len;
		}
		break;
	}
}

/* The casts: move_tags only reads what the direction leaves const. */
void ff_y2_page_get_tags(const struct ff_y2_layout *lay, const uint8_t *raw_page,
			 uint8_t *tags)
{
	move_tags(lay, (uint8_t *)raw_page, tags, 0);
}

void ff_y2_page_put_tags(const struct ff_y2_layout *lay, uint8_t *raw_page,
			 const uint8_t *tags)
{
	move_tags(lay, raw_page, (uint8_t *)tags, 1);
}

uint32_t ff_y2_page_split(const struct ff_y2_layout *lay, const uint8_t *raw_page,
			  uint8_t *data, uint8_t *auto_oob)
{
	memcpy(data, raw_page, lay->geom.page_size);
	memset(auto_oob, 0xff, lay->mtd_free_bytes);
	if (lay->kind == FF_Y2_LAYOUT_INBAND)
		return 0;
	if (lay->tags_size <= lay->mtd_free_bytes)
		ff_y2_page_get_tags(lay, raw_page, auto_oob);
	return lay->tags_size;
}

void ff_y2_page_join(const struct ff_y2_layout *lay, const uint8_t *data,
		     const uint8_t *auto_oob, uint8_t *raw_page)
{
	memcpy(raw_page, data, lay->geom.page_size);
	if (lay->kind == FF_Y2_LAYOUT_INBAND)
		return;
	memset(raw_page + lay->geom.page_size, 0xff, lay->geom.oob_size);
	if (lay->tags_size <= lay->mtd_free_bytes)
		ff_y2_page_put_tags(lay, raw_page, auto_oob);
}
