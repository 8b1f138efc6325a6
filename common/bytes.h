/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Byte-run tests shared by the writers, the extractor and the bench. */
#ifndef FF_COMMON_BYTES_H
#define FF_COMMON_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 1 when each of the n bytes at p equals c.  An empty run (n == 0) is
 * uniform: 1, and p is not read. */
int ff_all_bytes(const void *p, size_t n, uint8_t c);

/* 1 when the n bytes at p are all zero; 1 for n == 0 (see ff_all_bytes). */
static inline int ff_is_zero(const void *p, size_t n)
{
	return ff_all_bytes(p, n, 0);
}

/* Byte-wise order of two names (or any byte strings) that carry their
 * lengths instead of a terminator: memcmp over the shorter, then the
 * shorter first.  Every file system here keeps directory entries in this
 * order (or checks it), and none of them may read past either length. */
static inline int ff_bytes_cmp(const void *a, size_t alen, const void *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	return c ? c : (alen > blen) - (alen < blen);
}

#endif
