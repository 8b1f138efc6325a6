/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/bytes.h"

#include <string.h>

int ff_all_bytes(const void *p, size_t n, uint8_t c)
{
	const uint8_t *b = p;

	/* each byte equals the one before it, and the first equals c */
	return n == 0 || (b[0] == c && !memcmp(b, b + 1, n - 1));
}
