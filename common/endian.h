/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Explicit little- and big-endian loads and stores.  On-disk structures are
 * always built and parsed through these, never by casting a struct over
 * bytes, so the code is correct on any host byte order and alignment. */
#ifndef FF_COMMON_ENDIAN_H
#define FF_COMMON_ENDIAN_H

#include <stdint.h>

static inline uint16_t ff_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t ff_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline uint64_t ff_get_le64(const uint8_t *p)
{
	return (uint64_t)ff_get_le32(p) | ((uint64_t)ff_get_le32(p + 4) << 32);
}

static inline void ff_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void ff_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void ff_put_le64(uint8_t *p, uint64_t v)
{
	ff_put_le32(p, (uint32_t)v);
	ff_put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t ff_get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t ff_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
	       (uint32_t)p[3];
}

static inline void ff_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void ff_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint64_t ff_get_be64(const uint8_t *p)
{
	return ((uint64_t)ff_get_be32(p) << 32) | ff_get_be32(p + 4);
}

static inline void ff_put_be64(uint8_t *p, uint64_t v)
{
	ff_put_be32(p, (uint32_t)(v >> 32));
	ff_put_be32(p + 4, (uint32_t)v);
}

/* Byte-order-selectable 16/32-bit access for formats (YAFFS2) whose byte
 * order is chosen per image. */
static inline uint32_t ff_get32(const uint8_t *p, int big)
{
	return big ? ff_get_be32(p) : ff_get_le32(p);
}

static inline void ff_put32(uint8_t *p, uint32_t v, int big)
{
	if (big)
		ff_put_be32(p, v);
	else
		ff_put_le32(p, v);
}

static inline uint16_t ff_get16(const uint8_t *p, int big)
{
	return big ? ff_get_be16(p) : ff_get_le16(p);
}

static inline void ff_put16(uint8_t *p, uint16_t v, int big)
{
	if (big)
		ff_put_be16(p, v);
	else
		ff_put_le16(p, v);
}

#endif
