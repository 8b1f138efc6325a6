/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* YAFFS2 packed tags: sequence number, object id, chunk id and byte count
 * (16 bytes), optionally followed by the 12-byte tags ECC (col_parity at
 * 16, 3 pad bytes, line_parity at 20, line_parity_prime at 24).
 *
 * Header chunks (chunk id 0) come in two styles:
 *   kernel   "extra header info": chunk_id = 0x80000000 | parent id (plus
 *            0x40000000 shrink, 0x20000000 shadows), the object type in the
 *            top 4 bits of obj_id, n_bytes = file size (files) or equivalent
 *            object id (hard links), as the Linux driver writes them;
 *   classic  chunk_id 0 and n_bytes 0xffff, as mkyaffs2image writes them
 *            (what unyaffs expects). */
#ifndef FF_YAFFS2_TAGS_H
#define FF_YAFFS2_TAGS_H

#include <stdint.h>

#define FF_Y2_SEQ_LOWEST 0x00001000u
#define FF_Y2_SEQ_HIGHEST 0xefffff00u
#define FF_Y2_MAX_CHUNK_ID 0x000fffffu

struct ff_y2_tags {
	uint32_t seq;
	uint32_t obj_id;     /* without the type bits */
	uint32_t chunk_id;   /* 0 for a header */
	uint32_t n_bytes;    /* data chunks: bytes used */
	/* Extra header info (kernel style headers). */
	int has_extra;
	uint32_t extra_parent;
	uint32_t extra_type;
	int extra_shrink, extra_shadows;
	uint32_t extra_value; /* file size low word, or equivalent id */
};

enum ff_y2_tags_result {
	FF_Y2_TAGS_ERASED = 0,   /* all 0xff: the page is unused */
	FF_Y2_TAGS_OK = 1,
	FF_Y2_TAGS_FIXED = 2,    /* a single bit error was corrected */
	FF_Y2_TAGS_UNFIXED = 3,  /* ECC says the tags are damaged */
};

/* Pack into buf[16] or buf[28] (with_ecc). */
void ff_y2_tags_pack(const struct ff_y2_tags *t, uint8_t *buf, int big, int with_ecc);

/* Unpack buf (corrected in place when the ECC allows). */
enum ff_y2_tags_result ff_y2_tags_unpack(uint8_t *buf, int big, int with_ecc,
					 struct ff_y2_tags *t);

#endif
