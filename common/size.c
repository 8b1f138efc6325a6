/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/size.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* The power of 1024 a suffix stands for, or -1. */
static int suffix_shift(const char *s)
{
	static const char units[] = "KMGT";
	const char *u;

	if (!*s)
		return 0;
	u = strchr(units, toupper((unsigned char)*s));
	/* mtd-utils and ubinize spell the same unit "KiB": accepted too. */
	if (!u || (s[1] && strcasecmp(s + 1, "ib")))
		return -1;
	return 10 * (int)(u - units + 1);
}

static int digit(int c, unsigned base)
{
	int v = isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;

	return v < (int)base ? v : -1;
}

/* The decimal or 0x number at the start of s; NULL when there is none
 * or it overflows, else where it ends. */
static const char *number(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	int d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (digit((unsigned char)*s, base) < 0)
		return NULL;
	for (; (d = digit((unsigned char)*s, base)) >= 0; s++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return NULL;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return s;
}

int ff_parse_uint(const char *s, uint64_t *out)
{
	uint64_t v;
	const char *end = number(s, &v);

	if (!end || *end)
		return -1;
	*out = v;
	return 0;
}

int ff_parse_size(const char *s, uint64_t *out)
{
	uint64_t v;
	const char *p = number(s, &v);
	int shift;

	if (!p)
		return -1;
	shift = suffix_shift(p);
	if (shift < 0 || (shift && v > UINT64_MAX >> shift))
		return -1;
	*out = v << shift;
	return 0;
}
