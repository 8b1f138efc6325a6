/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The scanned image, shared by the reader's files. */
#ifndef FF_UBI_READER_PRIV_H
#define FF_UBI_READER_PRIV_H

#include "common/bsrc.h"
#include "common/nand_ecc.h"
#include "common/problems.h"
#include "ubi/reader.h"

/* One PEB holding a LEB: where, and its VID header. */
struct ff_ubi_leb {
	uint32_t peb;
	struct ff_ubi_vid_hdr vid;
};

/* The Hamming codes' places in each page's OOB, and what reading the
 * pages found: counted by readers of a shared image, hence atomic. */
struct ff_ubi_ecc {
	uint16_t pos[FF_NAND_HAMMING_MAX_POS];
	size_t n;
	_Atomic uint64_t corrected, failed;
};

struct ff_ubi_image {
	struct ff_bsrc *src;    /* the image, from its first byte (one reference) */
	uint64_t size;          /* src->size */
	uint32_t peb_size, vid_hdr_offs, data_offs, leb_size, image_seq, version;
	uint32_t pebs, erased_pebs, bad_pebs, old_copies;
	/* A raw NAND dump: each page_size bytes of data followed by oob_size
	 * OOB bytes, raw_peb bytes per PEB in the file; plain: oob_size 0 and
	 * raw_peb = peb_size. */
	uint32_t page_size, oob_size, raw_peb, marked_bad;
	struct ff_ubi_ecc *ecc;  /* a raw dump with Hamming codes; else NULL */
	uint64_t max_ec;
	uint8_t *peb_buf;       /* one PEB */
	struct ff_ubi_leb *lebs; /* the winning copies, sorted by volume and LEB */
	size_t n_lebs, cap_lebs;
	struct ff_ubi_volume *vols;
	size_t n_vols;
	struct ff_problem_list problems; /* no cap; -1 from an add: out of memory */
};
/* Reads len bytes at off within PEB peb (a raw dump's bit flips repaired
 * where img->ecc is set); 0 ok, -1 (with err) on failure. */
int ff_ubi_read_peb(const struct ff_ubi_image *img, uint32_t peb, uint32_t off, void *buf,
		    size_t len, struct ff_err *err);

int ff_ubi_scan(struct ff_ubi_image *img, struct ff_err *err);

/* One way to lay the image out: plain (oob_size 0) or page + OOB. */
struct ff_ubi_layout {
	uint32_t page_size, oob_size;
	uint32_t score; /* sound VID headers among the first PEBs it finds */
};
#define FF_UBI_MAX_LAYOUTS 16
/* The layouts worth trying (hint may be NULL), best first; their count. */
size_t ff_ubi_layouts(struct ff_ubi_image *img, const struct ff_ubi_hint *hint,
		      struct ff_ubi_layout *out);
/* Sets up the geometry under the layout in img->page_size/oob_size. */
int ff_ubi_detect_geometry(struct ff_ubi_image *img, uint32_t peb_size, struct ff_err *err);
/* Sets img->ecc when the raw dump's OOBs carry the kernel's software
 * Hamming codes (nandsim's and many SoCs' default); -1 only on a read
 * error or out of memory. */
int ff_ubi_ecc_detect(struct ff_ubi_image *img, struct ff_err *err);
/* Reads the OOB of the PEB's first page (raw dumps only). */
int ff_ubi_peb_marked_bad(const struct ff_ubi_image *img, uint32_t peb, struct ff_err *err);
int ff_ubi_read_vtbl(struct ff_ubi_image *img, struct ff_err *err);
/* Counts each volume's LEBs and checks static volumes' data CRCs. */
int ff_ubi_volumes_finish(struct ff_ubi_image *img, struct ff_err *err);
/* The LEB list entry for (vol_id, lnum), or NULL. */
const struct ff_ubi_leb *ff_ubi_find_leb(const struct ff_ubi_image *img, uint32_t vol_id,
					 uint32_t lnum);

#endif
