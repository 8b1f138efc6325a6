/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The 512-byte YAFFS2 object header (struct yaffs_obj_hdr), the first
 * chunk of every object.  Field offsets (bytes):
 *   0 type  4 parent_obj_id  8 sum (unused, 0xffff)  10 name[256]
 *   268 mode  272 uid  276 gid  280 atime  284 mtime  288 ctime
 *   292 file_size_low  296 equiv_id  300 alias[160]  460 rdev
 *   464 win_ctime[2]  472 win_atime[2]  480 win_mtime[2]
 *   488 inband_shadowed_obj_id  492 inband_is_shrink  496 file_size_high
 *   500 reserved  504 shadows_obj  508 is_shrink
 * Times are 64-bit: the low word in yst_*, and (as newer yaffs stores
 * them) win_*[0] = low word, win_*[1] = high word.  A reader trusts the
 * high word only when win_*[0] repeats the low word, because
 * mkyaffs2image leaves those fields 0xff. */
#ifndef FF_YAFFS2_OBJ_HEADER_H
#define FF_YAFFS2_OBJ_HEADER_H

#include <stdint.h>

#include "common/error.h"

#define FF_Y2_OBJ_HEADER_SIZE 512
/* The shortest header stored: with inband tags on 512-byte pages a chunk
 * keeps 496 data bytes, and the Linux driver (yaffs_tags_marshall_write)
 * packs the 16-byte tags over header bytes 496..511, so file_size_high,
 * reserved, shadows_obj and is_shrink are lost; its scan (yaffs2_scan_chunk)
 * takes shadows and shrink from the inband_* copies instead. */
#define FF_Y2_OBJ_HEADER_MIN 496
#define FF_Y2_NAME_MAX 255
#define FF_Y2_ALIAS_MAX 159

#define FF_Y2_OBJID_ROOT 1
#define FF_Y2_OBJID_LOSTNFOUND 2
#define FF_Y2_OBJID_UNLINKED 3
#define FF_Y2_OBJID_DELETED 4
#define FF_Y2_OBJID_FIRST 257
#define FF_Y2_OBJID_MAX 0x3ffff

enum ff_y2_obj_type {
	FF_Y2_TYPE_UNKNOWN = 0,
	FF_Y2_TYPE_FILE = 1,
	FF_Y2_TYPE_SYMLINK = 2,
	FF_Y2_TYPE_DIRECTORY = 3,
	FF_Y2_TYPE_HARDLINK = 4,
	FF_Y2_TYPE_SPECIAL = 5,
};

struct ff_y2_obj_header {
	uint32_t type;
	uint32_t parent_id;
	char name[FF_Y2_NAME_MAX + 1];   /* NUL-terminated */
	uint32_t mode, uid, gid;
	int64_t atime, mtime, ctime;
	uint64_t file_size;
	uint32_t equiv_id;
	char alias[FF_Y2_ALIAS_MAX + 1]; /* NUL-terminated */
	uint32_t rdev;                   /* old_encode_dev form */
	uint32_t shadows_obj;
	uint32_t is_shrink;
};

/* Encode into buf[512] with the chosen byte order. */
void ff_y2_obj_header_encode(const struct ff_y2_obj_header *oh, uint8_t *buf, int big);

/* Decode and check: type 1..5, name and alias terminated.  Errors say
 * which field is wrong. */
int ff_y2_obj_header_decode(const uint8_t *buf, int big, struct ff_y2_obj_header *oh,
			    struct ff_err *err);

/* The header bytes a chunk of chunk_bytes data bytes holds: 512, or fewer
 * (truncated) for chunks below 512 bytes. */
uint32_t ff_y2_obj_header_len(uint32_t chunk_bytes);

/* The same for a header stored in len bytes (FF_Y2_OBJ_HEADER_MIN..512):
 * nothing at or past buf[len] is written or read.  A truncated header has
 * no file_size_high, so encoding fails for a size of 4 GiB or more, as it
 * does for len below FF_Y2_OBJ_HEADER_MIN; decoding fails for such a len. */
int ff_y2_obj_header_encode_len(const struct ff_y2_obj_header *oh, uint8_t *buf, uint32_t len,
				int big, struct ff_err *err);
int ff_y2_obj_header_decode_len(const uint8_t *buf, uint32_t len, int big,
				struct ff_y2_obj_header *oh, struct ff_err *err);

/* Linux old_encode_dev: (major << 8) | minor, both below 256.  Returns -1
 * when the device number does not fit. */
int ff_y2_rdev_encode(uint32_t major, uint32_t minor, uint32_t *rdev);
void ff_y2_rdev_decode(uint32_t rdev, uint32_t *major, uint32_t *minor);

/* The object type for a mode's S_IFMT (regular, dir, symlink, special). */
enum ff_y2_obj_type ff_y2_type_for_mode(uint32_t mode);

#endif
