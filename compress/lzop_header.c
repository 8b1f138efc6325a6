/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The lzop file header.  Layout (big-endian), fields marked * only when the
 * writer's version is >= 0x0940:
 *   u16 version, u16 lib_version, *u16 version_needed, u8 method, *u8 level,
 *   u32 flags, [u32 filter if F_H_FILTER], u32 mode, u32 mtime_low,
 *   *u32 mtime_high, u8 name_len, name, u32 checksum of all the above
 *   (adler32, or crc32 with F_H_CRC32), then with F_H_EXTRA_FIELD:
 *   u32 len, len bytes, u32 checksum of len and bytes. */
#include "compress/lzop_header.h"
#include "compress/cstream.h"
#include "common/endian.h"

#include <errno.h>
#include <string.h>
#ifndef FF_NO_LZO /* `make LZO=0`: no lzop stream to read or write */
#include <lzo/lzoconf.h>

#define NEW_FIELDS 0x0940u
#define F_H_EXTRA_FIELD 0x40u
#define F_H_FILTER 0x800u
#define F_H_CRC32 0x1000u
#define EXTRA_MAX (1u << 16)

static uint32_t header_sum(uint32_t flags, const uint8_t *p, size_t n)
{
	return flags & F_H_CRC32 ? lzo_crc32(0, p, n) : lzo_adler32(1, p, n);
}

size_t ff_lzop_header_encode(const struct ff_lzop_header *h, uint8_t *buf)
{
	uint8_t *p = buf;

	ff_put_be16(p, h->version), p += 2;
	ff_put_be16(p, h->lib_version), p += 2;
	ff_put_be16(p, h->version_needed), p += 2;
	*p++ = h->method;
	*p++ = h->level;
	ff_put_be32(p, h->flags), p += 4;
	ff_put_be32(p, h->mode), p += 4;
	ff_put_be32(p, (uint32_t)h->mtime), p += 4;
	ff_put_be32(p, (uint32_t)(h->mtime >> 32)), p += 4;
	*p++ = h->name_len;
	memcpy(p, h->name, h->name_len), p += h->name_len;
	ff_put_be32(p, header_sum(h->flags, buf, (size_t)(p - buf)));
	return (size_t)(p - buf) + 4;
}

/* Read n header bytes into acc (for the checksum) and return where. */
static uint8_t *take(struct ff_cstream *s, uint8_t *acc, size_t *used, size_t n,
		     const char *what, struct ff_err *err)
{
	uint8_t *at = acc + *used;

	if (*used + n > FF_LZOP_HEADER_MAX) {
		ff_err_set(err, EIO, "lzop stream: header too long at %s", what);
		return NULL;
	}
	if (ff_cs_take(s, at, n, what, err))
		return NULL;
	*used += n;
	return at;
}

static int skip_extra(struct ff_cstream *s, uint32_t flags, struct ff_err *err)
{
	uint8_t b[4], chunk[256];
	uint32_t len, sum;

	if (ff_cs_take(s, b, 4, "extra field length", err))
		return -1;
	len = ff_get_be32(b);
	if (len > EXTRA_MAX)
		return ff_err_set(err, EIO, "lzop stream: extra field of %u bytes (max %u)", len,
				  EXTRA_MAX);
	sum = flags & F_H_CRC32 ? lzo_crc32(0, b, 4) : lzo_adler32(1, b, 4);
	while (len) {
		size_t n = len < sizeof(chunk) ? len : sizeof(chunk);

		if (ff_cs_take(s, chunk, n, "extra field", err))
			return -1;
		sum = flags & F_H_CRC32 ? lzo_crc32(sum, chunk, n) : lzo_adler32(sum, chunk, n);
		len -= (uint32_t)n;
	}
	if (ff_cs_take(s, b, 4, "extra field checksum", err))
		return -1;
	if (ff_get_be32(b) != sum)
		return ff_err_set(err, EIO, "lzop stream: extra field checksum mismatch");
	return 0;
}

static int read_fields(struct ff_cstream *s, struct ff_lzop_header *h, uint8_t *acc,
		       size_t *used, struct ff_err *err)
{
	uint8_t *p;
	int newer;

	if (!(p = take(s, acc, used, 4, "version", err)))
		return -1;
	h->version = ff_get_be16(p);
	h->lib_version = ff_get_be16(p + 2);
	newer = h->version >= NEW_FIELDS;
	if (newer && !(p = take(s, acc, used, 2, "version needed", err)))
		return -1;
	h->version_needed = newer ? ff_get_be16(p) : 0;
	if (!(p = take(s, acc, used, newer ? 6 : 5, "method and flags", err)))
		return -1;
	h->method = p[0];
	h->level = newer ? p[1] : 0;
	h->flags = ff_get_be32(p + (newer ? 2 : 1));
	if ((h->flags & F_H_FILTER) && !take(s, acc, used, 4, "filter", err))
		return -1;
	if (!(p = take(s, acc, used, newer ? 13 : 9, "mode and mtime", err)))
		return -1;
	h->mode = ff_get_be32(p);
	h->mtime = ff_get_be32(p + 4) | (newer ? (uint64_t)ff_get_be32(p + 8) << 32 : 0);
	h->name_len = p[newer ? 12 : 8];
	if (!(p = take(s, acc, used, h->name_len, "name", err)))
		return -1;
	memcpy(h->name, p, h->name_len);
	h->name[h->name_len] = '\0';
	return 0;
}

int ff_lzop_header_read(struct ff_cstream *s, struct ff_lzop_header *h, struct ff_err *err)
{
	uint8_t acc[FF_LZOP_HEADER_MAX], b[4];
	size_t used = 0;

	memset(h, 0, sizeof(*h));
	if (read_fields(s, h, acc, &used, err))
		return -1;
	if (ff_cs_take(s, b, 4, "header checksum", err))
		return -1;
	if (ff_get_be32(b) != header_sum(h->flags, acc, used))
		return ff_err_set(err, EIO, "lzop stream: header checksum mismatch");
	if (h->flags & F_H_FILTER)
		return ff_err_set(err, ENOTSUP, "lzop stream: filtered data (lzop -F) is not "
				  "supported");
	if (h->version_needed > FF_LZOP_VERSION)
		return ff_err_set(err, ENOTSUP, "lzop stream: needs lzop version %x.%03x",
				  h->version_needed >> 12, h->version_needed & 0xfff);
	if (h->method < 1 || h->method > 3)
		return ff_err_set(err, ENOTSUP, "lzop stream: method %u is not LZO1X (1..3)",
				  h->method);
	if (h->flags & F_H_EXTRA_FIELD)
		return skip_extra(s, h->flags, err);
	return 0;
}
#endif
