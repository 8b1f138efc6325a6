/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/obj_header.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"

#define OFF_SIZE_HIGH 496 /* file_size_high: the first word a 496-byte header lacks */

static void put_time(uint8_t *buf, size_t yst_off, size_t win_off, int64_t t, int big)
{
	uint32_t low = (uint32_t)(uint64_t)t;

	ff_put32(buf + yst_off, low, big);
	ff_put32(buf + win_off, low, big);
	ff_put32(buf + win_off + 4, (uint32_t)((uint64_t)t >> 32), big);
}

static int64_t get_time(const uint8_t *buf, size_t yst_off, size_t win_off, int big)
{
	uint32_t low = ff_get32(buf + yst_off, big);
	uint64_t high = 0;

	if (ff_get32(buf + win_off, big) == low && ff_get32(buf + win_off + 4, big) != 0xffffffffu)
		high = ff_get32(buf + win_off + 4, big);
	return (int64_t)((high << 32) | low);
}

/* Stores v at off only when the header's len bytes reach past it. */
static void put_in(uint8_t *buf, uint32_t len, size_t off, uint32_t v, int big)
{
	if (off + 4 <= len)
		ff_put32(buf + off, v, big);
}

uint32_t ff_y2_obj_header_len(uint32_t chunk_bytes)
{
	return chunk_bytes < FF_Y2_OBJ_HEADER_SIZE ? chunk_bytes : FF_Y2_OBJ_HEADER_SIZE;
}

static int check_len(uint32_t len, struct ff_err *err)
{
	if (len < FF_Y2_OBJ_HEADER_MIN || len > FF_Y2_OBJ_HEADER_SIZE)
		return ff_err_set(err, EINVAL, "object header: %u bytes, expected %u to %u", len,
				  FF_Y2_OBJ_HEADER_MIN, FF_Y2_OBJ_HEADER_SIZE);
	return 0;
}

int ff_y2_obj_header_encode_len(const struct ff_y2_obj_header *oh, uint8_t *buf, uint32_t len,
				int big, struct ff_err *err)
{
	if (check_len(len, err))
		return -1;
	if (len < OFF_SIZE_HIGH + 4 && oh->file_size > 0xffffffffu)
		return ff_err_set(err, EFBIG, "file size %llu needs file_size_high (header byte"
				  " %u), which a %u-byte header does not hold",
				  (unsigned long long)oh->file_size, OFF_SIZE_HIGH, len);
	memset(buf, 0xff, len);
	ff_put32(buf + 0, oh->type, big);
	ff_put32(buf + 4, oh->parent_id, big);
	memset(buf + 10, 0, FF_Y2_NAME_MAX + 1);
	memcpy(buf + 10, oh->name, strnlen(oh->name, FF_Y2_NAME_MAX));
	buf[266] = buf[267] = 0xff; /* alignment padding */
	ff_put32(buf + 268, oh->mode, big);
	ff_put32(buf + 272, oh->uid, big);
	ff_put32(buf + 276, oh->gid, big);
	put_time(buf, 280, 472, oh->atime, big);
	put_time(buf, 284, 480, oh->mtime, big);
	put_time(buf, 288, 464, oh->ctime, big);
	ff_put32(buf + 292, (uint32_t)oh->file_size, big);
	ff_put32(buf + 296, oh->equiv_id, big);
	memset(buf + 300, 0, FF_Y2_ALIAS_MAX + 1);
	memcpy(buf + 300, oh->alias, strnlen(oh->alias, FF_Y2_ALIAS_MAX));
	ff_put32(buf + 460, oh->rdev, big);
	/* yaffs_update_oh writes shadows to both words; the inband copies are
	 * what survives when the tags cover the header's end. */
	ff_put32(buf + 488, oh->shadows_obj, big);
	ff_put32(buf + 492, oh->is_shrink, big);
	put_in(buf, len, OFF_SIZE_HIGH, (uint32_t)(oh->file_size >> 32), big);
	put_in(buf, len, 504, oh->shadows_obj, big);
	put_in(buf, len, 508, oh->is_shrink, big);
	return 0;
}

void ff_y2_obj_header_encode(const struct ff_y2_obj_header *oh, uint8_t *buf, int big)
{
	(void)ff_y2_obj_header_encode_len(oh, buf, FF_Y2_OBJ_HEADER_SIZE, big, NULL);
}

/* A word that holds a value: not 0 and not erased, and inside the header. */
static int set_word(const uint8_t *buf, uint32_t len, size_t off, int big)
{
	uint32_t v;

	if (off + 4 > len)
		return 0;
	v = ff_get32(buf + off, big);
	return v != 0 && v != 0xffffffffu;
}

static int get_string(const uint8_t *src, size_t cap, char *dst, const char *what,
		      struct ff_err *err)
{
	size_t len = strnlen((const char *)src, cap);

	if (len == cap)
		return ff_err_set(err, EIO, "object header: %s not terminated within %zu bytes",
				  what, cap);
	memcpy(dst, src, len + 1);
	return 0;
}

/* mkyaffs2image leaves file_size_high erased (0xffffffff), and a truncated
 * header has none. */
static uint64_t get_size(const uint8_t *buf, uint32_t len, int big)
{
	uint32_t high = len >= OFF_SIZE_HIGH + 4 ? ff_get32(buf + OFF_SIZE_HIGH, big) : 0xffffffffu;

	return ff_get32(buf + 292, big) | (high == 0xffffffffu ? 0 : (uint64_t)high << 32);
}

/* With inband tags the driver may keep these two only in the inband_*
 * copies; erased (0xffffffff) words mean "not set". */
static void get_shadow_shrink(const uint8_t *buf, uint32_t len, int big,
			      struct ff_y2_obj_header *oh)
{
	if (set_word(buf, len, 504, big))
		oh->shadows_obj = ff_get32(buf + 504, big);
	else if (set_word(buf, len, 488, big))
		oh->shadows_obj = ff_get32(buf + 488, big);
	oh->is_shrink = set_word(buf, len, 508, big) || set_word(buf, len, 492, big);
}

int ff_y2_obj_header_decode_len(const uint8_t *buf, uint32_t len, int big,
				struct ff_y2_obj_header *oh, struct ff_err *err)
{
	memset(oh, 0, sizeof(*oh));
	if (check_len(len, err))
		return -1;
	oh->type = ff_get32(buf, big);
	if (oh->type < FF_Y2_TYPE_FILE || oh->type > FF_Y2_TYPE_SPECIAL)
		return ff_err_set(err, EIO, "object header: unknown type %u", oh->type);
	oh->parent_id = ff_get32(buf + 4, big);
	if (get_string(buf + 10, FF_Y2_NAME_MAX + 1, oh->name, "name", err))
		return -1;
	oh->mode = ff_get32(buf + 268, big);
	oh->uid = ff_get32(buf + 272, big);
	oh->gid = ff_get32(buf + 276, big);
	oh->atime = get_time(buf, 280, 472, big);
	oh->mtime = get_time(buf, 284, 480, big);
	oh->ctime = get_time(buf, 288, 464, big);
	oh->file_size = get_size(buf, len, big);
	oh->equiv_id = ff_get32(buf + 296, big);
	if (oh->type == FF_Y2_TYPE_SYMLINK &&
	    get_string(buf + 300, FF_Y2_ALIAS_MAX + 1, oh->alias, "symlink target", err))
		return -1;
	/* Other types' alias field is unused (erased, zeros, or our
	 * end_record.h): kept only when terminated. */
	if (oh->type != FF_Y2_TYPE_SYMLINK &&
	    strnlen((const char *)buf + 300, FF_Y2_ALIAS_MAX + 1) <= FF_Y2_ALIAS_MAX)
		memcpy(oh->alias, buf + 300, strlen((const char *)buf + 300) + 1);
	oh->rdev = ff_get32(buf + 460, big);
	get_shadow_shrink(buf, len, big, oh);
	return 0;
}

int ff_y2_obj_header_decode(const uint8_t *buf, int big, struct ff_y2_obj_header *oh,
			    struct ff_err *err)
{
	return ff_y2_obj_header_decode_len(buf, FF_Y2_OBJ_HEADER_SIZE, big, oh, err);
}

int ff_y2_rdev_encode(uint32_t major, uint32_t minor, uint32_t *rdev)
{
	if (major > 255 || minor > 255)
		return -1;
	*rdev = (major << 8) | minor;
	return 0;
}

void ff_y2_rdev_decode(uint32_t rdev, uint32_t *major, uint32_t *minor)
{
	*major = (rdev >> 8) & 0xff;
	*minor = rdev & 0xff;
}

enum ff_y2_obj_type ff_y2_type_for_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return FF_Y2_TYPE_FILE;
	case S_IFDIR:
		return FF_Y2_TYPE_DIRECTORY;
	case S_IFLNK:
		return FF_Y2_TYPE_SYMLINK;
	default:
		return FF_Y2_TYPE_SPECIAL;
	}
}
