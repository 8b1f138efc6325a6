/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBI on-flash format (the kernel's drivers/mtd/ubi/ubi-media.h): the
 * erase-counter header at the start of every PEB, the volume-identifier
 * header at the VID offset of every mapped PEB, and the volume table kept
 * in the two LEBs of the layout volume.  Each structure has a decoded form
 * here and an encoder/decoder in the file named after it; all fields are
 * big-endian on flash. */
#ifndef FF_UBI_MEDIA_H
#define FF_UBI_MEDIA_H

#include <stddef.h>
#include <stdint.h>

#define FF_UBI_EC_MAGIC 0x55424923u  /* "UBI#" */
#define FF_UBI_VID_MAGIC 0x55424921u /* "UBI!" */
#define FF_UBI_VERSION 1
#define FF_UBI_HDR_SIZE 64           /* both headers; the CRC covers the first 60 */
#define FF_UBI_VTBL_RECORD_SIZE 172  /* the CRC covers the first 168 */
#define FF_UBI_MAX_VOLUMES 128
#define FF_UBI_VOL_NAME_MAX 127
#define FF_UBI_MAX_PEB_SIZE (2u * 1024 * 1024) /* what ubinize accepts */

/* The layout volume: an internal volume of two LEBs, each a copy of the
 * volume table. */
#define FF_UBI_LAYOUT_VOL_ID (0x7FFFFFFFu - 4096)
#define FF_UBI_LAYOUT_VOL_EBS 2
#define FF_UBI_COMPAT_REJECT 5

enum { FF_UBI_VOL_DYNAMIC = 1, FF_UBI_VOL_STATIC = 2 };
enum { FF_UBI_FLAG_AUTORESIZE = 0x01, FF_UBI_FLAG_SKIP_CHECK = 0x02 };

/* What a decoder found. */
enum ff_ubi_hdr_status {
	FF_UBI_HDR_OK = 0,
	FF_UBI_HDR_ERASED,    /* all 0xFF: never written */
	FF_UBI_HDR_BAD_MAGIC,
	FF_UBI_HDR_BAD_CRC,
};

struct ff_ubi_ec_hdr {
	uint8_t version;
	uint64_t ec;
	uint32_t vid_hdr_offset;
	uint32_t data_offset;
	uint32_t image_seq;
};

struct ff_ubi_vid_hdr {
	uint8_t version;
	uint8_t vol_type;  /* FF_UBI_VOL_* */
	uint8_t copy_flag; /* set when wear-leveling copied the LEB */
	uint8_t compat;
	uint32_t vol_id;
	uint32_t lnum;
	uint32_t data_size; /* static volumes (and copies): bytes in this LEB */
	uint32_t used_ebs;  /* static volumes: LEBs the volume's data fills */
	uint32_t data_pad;
	uint32_t data_crc;
	uint64_t sqnum;     /* global write order: the higher copy is newer */
};

struct ff_ubi_vtbl_record {
	uint32_t reserved_pebs; /* 0: the slot is empty */
	uint32_t alignment;
	uint32_t data_pad;
	uint8_t vol_type;
	uint8_t upd_marker;     /* an update was interrupted */
	uint16_t name_len;
	char name[FF_UBI_VOL_NAME_MAX + 1];
	uint8_t flags;          /* FF_UBI_FLAG_* */
};

/* CRC-32 as UBI computes it: the kernel's crc32_le seeded with 0xFFFFFFFF
 * and not inverted at the end. */
uint32_t ff_ubi_crc32(const void *buf, size_t len);

/* Encoders write exactly FF_UBI_HDR_SIZE / FF_UBI_VTBL_RECORD_SIZE bytes,
 * padding zeroed and the CRC filled in. */
void ff_ubi_ec_hdr_encode(const struct ff_ubi_ec_hdr *h, uint8_t *out);
enum ff_ubi_hdr_status ff_ubi_ec_hdr_decode(const uint8_t *in, struct ff_ubi_ec_hdr *h);
void ff_ubi_vid_hdr_encode(const struct ff_ubi_vid_hdr *h, uint8_t *out);
enum ff_ubi_hdr_status ff_ubi_vid_hdr_decode(const uint8_t *in, struct ff_ubi_vid_hdr *h);
void ff_ubi_vtbl_record_encode(const struct ff_ubi_vtbl_record *r, uint8_t *out);
/* 0 ok, -1 bad CRC.  The name is NUL-terminated at name_len (clamped). */
int ff_ubi_vtbl_record_decode(const uint8_t *in, struct ff_ubi_vtbl_record *r);

/* 1 when all len bytes are 0xFF (erased flash). */
int ff_ubi_is_erased(const uint8_t *p, size_t len);

#endif
