/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Reading a UBI image (what ubinize writes, a dump of a UBI partition
 * without OOB, or a raw NAND dump with each page followed by its OOB, as
 * `nanddump -o` writes it) as the kernel attaches one: blocks whose OOB
 * carries the bad-block marker are skipped, every PEB's EC and VID headers
 * are read, erased PEBs and PEBs with damaged headers are skipped, the
 * newest copy of each LEB wins by sequence number (a copy made by
 * wear-leveling only if its data CRC holds), and the volume table comes
 * from the layout volume's two copies.  Each volume's bytes can then be
 * copied out.  Problems are collected, each naming its PEB, for
 * `flashfs check`. */
#ifndef FF_UBI_READER_H
#define FF_UBI_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"
#include "ubi/media.h"

enum ff_ubi_crc_state { FF_UBI_CRC_NONE, FF_UBI_CRC_OK, FF_UBI_CRC_BAD };

struct ff_ubi_volume {
	uint32_t id;
	char name[FF_UBI_VOL_NAME_MAX + 1];
	uint8_t type, flags, upd_marker;
	uint32_t reserved_pebs, alignment, data_pad;
	uint32_t usable_leb;   /* LEB size less data_pad */
	uint32_t mapped_lebs;  /* LEBs found on flash */
	uint32_t lebs;         /* LEBs the volume's bytes span (see size) */
	uint64_t size;         /* static: the data; dynamic: through the last mapped LEB */
	enum ff_ubi_crc_state crc; /* static volumes: every LEB's data CRC */
	size_t first_leb;      /* index of its LEB 0.. in the image's LEB list */
};

struct ff_ubi_image;

/* 1 when buf starts with an EC header magic. */
int ff_ubi_probe(const uint8_t *buf, size_t len);

/* What a caller knows of the geometry; 0 = detect.  peb_size is the
 * eraseblock's data bytes (without OOB).  page_size/oob_size describe a raw
 * NAND dump; with both 0 the image is tried as plain data first, then as a
 * dump with each common page and OOB size (common/nand.h). */
struct ff_ubi_hint {
	uint32_t peb_size, page_size, oob_size;
};

/* Scans the image in src (which it holds a reference to).  hint may be
 * NULL.  The PEB size is detected as the distance to the next EC header of
 * the same image; a layout (plain or page + OOB) is taken when its volume
 * table reads sound. */
int ff_ubi_open(struct ff_bsrc *src, const struct ff_ubi_hint *hint, struct ff_ubi_image **out,
		struct ff_err *err);
void ff_ubi_close(struct ff_ubi_image *img);

size_t ff_ubi_volume_count(const struct ff_ubi_image *img);
const struct ff_ubi_volume *ff_ubi_volume_at(const struct ff_ubi_image *img, size_t i);
/* The volume named sel, or with ID sel; with sel NULL the only volume, or
 * the one named "rootfs".  -1 with a message listing the volumes. */
int ff_ubi_volume_select(const struct ff_ubi_image *img, const char *sel, size_t *index,
			 struct ff_err *err);
/* The volume's bytes as a byte source read in place (unmapped LEBs of a
 * dynamic volume read as erased 0xFF bytes).  img must outlive it. */
struct ff_bsrc *ff_ubi_volume_src(const struct ff_ubi_image *img, size_t i, struct ff_err *err);
/* Writes the volume's size bytes to out_fd at its current position
 * (unmapped LEBs of a dynamic volume as erased 0xFF bytes). */
int ff_ubi_volume_copy(const struct ff_ubi_image *img, size_t i, int out_fd,
		       struct ff_err *err);

/* Geometry and counts for `flashfs info`. */
struct ff_ubi_summary {
	uint32_t peb_size, leb_size, vid_hdr_offs, data_offs, image_seq, version;
	uint32_t pebs, used_pebs, erased_pebs, bad_pebs, old_copies;
	uint32_t page_size, oob_size; /* raw NAND dump: page + OOB; oob_size 0: plain */
	uint32_t marked_bad;          /* raw dump: blocks with the bad-block marker */
	const char *ecc;              /* raw dump: "hamming" when its OOBs carry the codes */
	uint64_t ecc_corrected;       /* ... bit flips repaired by the reads so far */
	uint64_t ecc_failed;          /* ... 256-byte steps that could not be */
	uint64_t max_ec;
	uint64_t image_bytes; /* from the offset to the end of the file */
};
void ff_ubi_summary(const struct ff_ubi_image *img, struct ff_ubi_summary *s);

/* A raw dump with Hamming codes: every page of every good PEB checked,
 * fn called for each with a step beyond repair; their count, -1 (err) on
 * a read error.  0 when the dump has no codes. */
long ff_ubi_ecc_check(const struct ff_ubi_image *img, ff_problem_fn fn, void *ctx,
		      struct ff_err *err);

/* Problems found while scanning ("PEB 12: VID header CRC mismatch"). */
size_t ff_ubi_problem_count(const struct ff_ubi_image *img);
const char *ff_ubi_problem(const struct ff_ubi_image *img, size_t i);

#endif
