/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Building a UBI image the way mtd-utils' ubinize does, byte for byte: the
 * layout volume in PEBs 0 and 1, then each volume's LEBs in the order they
 * are given, one PEB per LEB, nothing written for unused PEBs. */
#ifndef FF_UBI_WRITER_H
#define FF_UBI_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/outfile.h"
#include "ubi/media.h"

/* The flash geometry and where the headers and data sit in a PEB. */
struct ff_ubi_geom {
	uint32_t peb_size, min_io, subpage;
	uint32_t vid_hdr_offs; /* default: the first sub-page after the EC header */
	uint32_t data_offs;    /* the first min. I/O unit after the VID header */
	uint32_t leb_size;     /* peb_size - data_offs */
	uint32_t max_volumes;  /* volume-table records one LEB holds, at most 128 */
};

/* Checks the sizes (powers of two, multiples, PEB at most 2 MiB, VID header
 * inside the PEB and past the EC header) and derives the rest.  subpage 0
 * means min_io; vid_hdr_offs 0 means the default. */
int ff_ubi_geom_init(struct ff_ubi_geom *g, uint32_t peb_size, uint32_t min_io,
		     uint32_t subpage, uint32_t vid_hdr_offs, struct ff_err *err);

/* One volume to build. */
struct ff_ubi_vol {
	uint32_t id;
	char name[FF_UBI_VOL_NAME_MAX + 1];
	uint8_t type;       /* FF_UBI_VOL_DYNAMIC or _STATIC */
	uint8_t flags;      /* FF_UBI_FLAG_* */
	uint32_t alignment;
	uint64_t bytes;     /* the volume size; reserved PEBs = ceil(bytes / LEB) */
	int fd;             /* the contents, or -1 for an empty volume */
	uint64_t image_size;
	char where[96];     /* "FILE:LINE" or an option, for messages */
};

struct ff_ubi_write_opts {
	uint64_t ec;        /* erase counter in every EC header */
	uint8_t ubi_version;
	uint32_t image_seq;
};

/* Checks what concerns several volumes (unique ids and names, one
 * autoresize volume, skip-check only on static ones) and the geometry
 * limits of each; messages start with the volume's `where`. */
int ff_ubi_vols_check(const struct ff_ubi_geom *g, const struct ff_ubi_vol *vols, size_t n,
		      struct ff_err *err);

/* Writes the whole image to of.  Each volume's fd is read from offset 0. */
int ff_ubi_write(struct ff_outfile *of, const struct ff_ubi_geom *g,
		 const struct ff_ubi_write_opts *o, const struct ff_ubi_vol *vols, size_t n,
		 struct ff_err *err);

/* The LEB bytes a volume uses: the LEB size less the padding its alignment
 * asks for. */
uint32_t ff_ubi_usable_leb(const struct ff_ubi_geom *g, uint32_t alignment);

#endif
