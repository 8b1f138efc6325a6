/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/xattr.h"

#include <errno.h>
#include <string.h>

#include "common/endian.h"

int ff_y2_xattr_encode(const struct ff_y2_xattr_in *x, size_t n, uint8_t *area, size_t cap,
		       int big, struct ff_err *err)
{
	size_t pos = 0;

	memset(area, 0xff, cap);
	for (size_t i = 0; i < n; i++) {
		size_t name_len = strlen(x[i].name);
		size_t rec = 4 + name_len + 1 + x[i].len;

		/* The driver stops at a record that ends exactly at the area's end. */
		if (rec >= cap - pos)
			return ff_err_set(err, ENOSPC,
					  "xattr %s: %zu bytes do not fit (%zu of %zu bytes left"
					  " after the object header)",
					  x[i].name, rec, cap - pos, cap);
		ff_put32(area + pos, (uint32_t)rec, big);
		memcpy(area + pos + 4, x[i].name, name_len + 1);
		if (x[i].len)
			memcpy(area + pos + 4 + name_len + 1, x[i].value, x[i].len);
		pos += rec;
	}
	return 0;
}

int ff_y2_xattr_walk(const uint8_t *area, size_t cap, int big, ff_y2_xattr_fn fn, void *ctx,
		     struct ff_err *err)
{
	size_t pos = 0;

	while (pos + 4 <= cap) {
		int32_t rec = (int32_t)ff_get32(area + pos, big);
		const char *name = (const char *)area + pos + 4;
		size_t name_len;
		int ret;

		if (rec <= 0 || (size_t)rec >= cap - pos)
			break;
		if (rec < 5)
			return ff_err_set(err, EIO, "xattr record at %zu: size %d too small", pos,
					  (int)rec);
		name_len = strnlen(name, (size_t)rec - 4);
		if (name_len == (size_t)rec - 4)
			return ff_err_set(err, EIO, "xattr record at %zu: name not terminated", pos);
		ret = fn(ctx, name, name_len, area + pos + 4 + name_len + 1,
			 (size_t)rec - 4 - name_len - 1);
		if (ret)
			return ret;
		pos += (size_t)rec;
	}
	return 0;
}
