/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The 512-byte tar header (POSIX ustar, old GNU, V7).
 *
 *   0 name[100]  100 mode[8]  108 uid[8]  116 gid[8]  124 size[12]
 *   136 mtime[12]  148 chksum[8]  156 typeflag  157 linkname[100]
 *   257 magic[6]  263 version[2]  265 uname[32]  297 gname[32]
 *   329 devmajor[8]  337 devminor[8]  345 prefix[155] (ustar only; old GNU
 *   keeps atime, ctime and the sparse map there instead). */
#include "tar/tar.h"

#include <errno.h>
#include <string.h>

#define OFF_NAME 0
#define OFF_MODE 100
#define OFF_UID 108
#define OFF_GID 116
#define OFF_SIZE 124
#define OFF_MTIME 136
#define OFF_CHKSUM 148
#define OFF_TYPE 156
#define OFF_LINKNAME 157
#define OFF_MAGIC 257
#define OFF_DEVMAJOR 329
#define OFF_DEVMINOR 337
#define OFF_PREFIX 345

/* GNU base-256: the top bit of the first byte flags binary, big-endian,
 * two's complement when the first byte is 0xff. */
static int parse_base256(const uint8_t *f, size_t len, int64_t *out)
{
	int neg = f[0] == 0xff;
	uint64_t v = neg ? ~(uint64_t)0 : 0;

	for (size_t i = 0; i < len; i++) {
		uint8_t b = i ? f[i] : (uint8_t)(f[0] & (neg ? 0xff : 0x7f));

		if (!neg && (v >> 55))
			return -1;
		v = (v << 8) | b;
	}
	*out = (int64_t)v;
	return 0;
}

int tar_parse_number(const uint8_t *f, size_t len, int64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (f[0] & 0x80)
		return parse_base256(f, len, out);
	while (i < len && (f[i] == ' ' || f[i] == '\0'))
		i++;
	if (i == len) {
		*out = 0;
		return 0;
	}
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = v * 8 + (uint64_t)(f[i] - '0');
	}
	for (; i < len; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	*out = (int64_t)v;
	return 0;
}

static int checksum_ok(const uint8_t *blk, int64_t stored)
{
	int64_t u = 0, s = 0;

	for (int i = 0; i < TAR_BLOCK; i++) {
		uint8_t b = (i >= OFF_CHKSUM && i < OFF_CHKSUM + 8) ? ' ' : blk[i];

		u += b;
		s += (int8_t)b; /* some old tars summed signed chars */
	}
	return stored == u || stored == s;
}

static void copy_str(char *dst, const uint8_t *src, size_t max)
{
	size_t n = strnlen((const char *)src, max);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int number(const uint8_t *blk, int off, size_t len, const char *what, int64_t min,
		  int64_t max, int64_t *out, struct ff_err *err)
{
	if (tar_parse_number(blk + off, len, out) || *out < min || *out > max)
		return ff_err_set(err, EINVAL, "header field %s is not a valid number (%.*s)", what,
				  (int)len, (const char *)blk + off);
	return 0;
}

static int decode_numbers(const uint8_t *blk, struct tar_header *h, struct ff_err *err)
{
	int64_t v[7];

	if (number(blk, OFF_MODE, 8, "mode", 0, INT32_MAX, &v[0], err) ||
	    number(blk, OFF_UID, 8, "uid", 0, UINT32_MAX, &v[1], err) ||
	    number(blk, OFF_GID, 8, "gid", 0, UINT32_MAX, &v[2], err) ||
	    number(blk, OFF_SIZE, 12, "size", 0, INT64_MAX, &v[3], err) ||
	    number(blk, OFF_MTIME, 12, "mtime", INT64_MIN, INT64_MAX, &v[4], err))
		return -1;
	if (h->is_ustar || h->is_gnu) {
		if (number(blk, OFF_DEVMAJOR, 8, "devmajor", 0, UINT32_MAX, &v[5], err) ||
		    number(blk, OFF_DEVMINOR, 8, "devminor", 0, UINT32_MAX, &v[6], err))
			return -1;
	} else {
		v[5] = v[6] = 0;
	}
	h->mode = (uint32_t)v[0] & 07777;
	h->uid = (uint32_t)v[1];
	h->gid = (uint32_t)v[2];
	h->size = (uint64_t)v[3];
	h->mtime = v[4];
	h->devmajor = (uint32_t)v[5];
	h->devminor = (uint32_t)v[6];
	return 0;
}

int tar_header_decode(const uint8_t *blk, struct tar_header *h, struct ff_err *err)
{
	int64_t sum;
	size_t plen;
	int i;

	for (i = 0; i < TAR_BLOCK && !blk[i]; i++)
		;
	if (i == TAR_BLOCK)
		return 1;
	memset(h, 0, sizeof(*h));
	if (tar_parse_number(blk + OFF_CHKSUM, 8, &sum))
		return ff_err_set(err, EINVAL, "header checksum field is not a number");
	if (!checksum_ok(blk, sum))
		return ff_err_set(err, EINVAL, "header checksum mismatch (not a tar archive, or damaged)");
	h->is_ustar = !memcmp(blk + OFF_MAGIC, "ustar\0", 6);
	h->is_gnu = !memcmp(blk + OFF_MAGIC, "ustar  \0", 8);
	h->type = (char)blk[OFF_TYPE];
	if (decode_numbers(blk, h, err))
		return -1;
	plen = h->is_ustar ? strnlen((const char *)blk + OFF_PREFIX, 155) : 0;
	if (plen) {
		memcpy(h->name, blk + OFF_PREFIX, plen);
		h->name[plen] = '/';
		copy_str(h->name + plen + 1, blk + OFF_NAME, 100);
	} else {
		copy_str(h->name, blk + OFF_NAME, 100);
	}
	copy_str(h->linkname, blk + OFF_LINKNAME, 100);
	return 0;
}
