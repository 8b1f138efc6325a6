/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes in the header chunk, after the 512-byte object
 * header, laid out as the Linux yaffs driver's name/value store does:
 * records of { int32 record size (including these 4 bytes), name, NUL,
 * value }, packed, the rest of the chunk erased (0xff).  A record size
 * that is not positive, or a record that would reach the end of the area,
 * ends the list (the driver's own rule). */
#ifndef FF_YAFFS2_XATTR_H
#define FF_YAFFS2_XATTR_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct ff_y2_xattr_in {
	const char *name;
	const uint8_t *value;
	uint32_t len;
};

/* Encode n attributes into area[cap] (filled with 0xff first).  Errors
 * name the attribute that does not fit and the sizes. */
int ff_y2_xattr_encode(const struct ff_y2_xattr_in *x, size_t n, uint8_t *area, size_t cap,
		       int big, struct ff_err *err);

/* Walk the records: fn gets each name (NUL-terminated in area) and value.
 * Returns 0, fn's non-zero result, or -1 (err set) for a malformed record. */
typedef int (*ff_y2_xattr_fn)(void *ctx, const char *name, size_t name_len,
			      const uint8_t *value, size_t len);
int ff_y2_xattr_walk(const uint8_t *area, size_t cap, int big, ff_y2_xattr_fn fn, void *ctx,
		     struct ff_err *err);

#endif
