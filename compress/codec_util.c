/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Helpers shared by the codecs: option-value parsing ("level=9",
 * "bcj=x86,arm", "dict=50%") whose errors name the codec, the key and the
 * offending text, and scratch-buffer growth. */
#include "compress/codec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int ff_opt_int(const char *codec, const char *key, const char *value, long lo, long hi,
	       long *out, struct ff_err *err)
{
	char *end;
	long v;

	if (!value || !*value)
		return ff_err_set(err, EINVAL, "%s: option %s needs a value (%ld..%ld)", codec,
				  key, lo, hi);
	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || *end)
		return ff_err_set(err, EINVAL, "%s: %s=%s: not a number", codec, key, value);
	if (v < lo || v > hi)
		return ff_err_set(err, EINVAL, "%s: %s=%s: out of range %ld..%ld", codec, key,
				  value, lo, hi);
	*out = v;
	return 0;
}

int ff_opt_bool(const char *codec, const char *key, const char *value, int *out,
		struct ff_err *err)
{
	static const char *const yes[] = { "1", "yes", "true", "on", NULL };
	static const char *const no[] = { "0", "no", "false", "off", NULL };

	if (!value || !*value || ff_opt_is(value, yes)) {
		*out = 1;
		return 0;
	}
	if (ff_opt_is(value, no)) {
		*out = 0;
		return 0;
	}
	return ff_err_set(err, EINVAL, "%s: %s=%s: expected a flag (yes/no)", codec, key, value);
}

static int list_index(const char *word, size_t len, const char *const *names,
		      const char *const *aliases)
{
	for (int i = 0; names[i]; i++) {
		if (strlen(names[i]) == len && !strncasecmp(word, names[i], len))
			return i;
		if (aliases && aliases[i] && strlen(aliases[i]) == len &&
		    !strncasecmp(word, aliases[i], len))
			return i;
	}
	return -1;
}

int ff_opt_list(const char *codec, const char *key, const char *value,
		const char *const *names, const char *const *aliases, uint32_t *mask,
		struct ff_err *err)
{
	char known[256] = "";
	uint32_t m = 0;
	const char *p = value;

	if (!value || !*value)
		return ff_err_set(err, EINVAL, "%s: option %s needs a list", codec, key);
	for (;;) {
		size_t len = strcspn(p, ",");
		int i = list_index(p, len, names, aliases);

		if (i < 0) {
			ff_info_names_text(~0u, names, known, sizeof(known));
			return ff_err_set(err, EINVAL, "%s: %s=%s: unknown name '%.*s' (known: %s)",
					  codec, key, value, (int)len, p, known);
		}
		m |= 1u << i;
		if (!p[len])
			break;
		p += len + 1;
	}
	*mask = m;
	return 0;
}

static int parse_percent(const char *codec, const char *key, const char *value,
			 uint32_t block_size, uint32_t *out, struct ff_err *err)
{
	char *end;
	double pct;

	errno = 0;
	pct = strtod(value, &end);
	if (errno || end == value || strcmp(end, "%") != 0 || pct <= 0 || pct > 100)
		return ff_err_set(err, EINVAL, "%s: %s=%s: bad percentage (0 < p <= 100)", codec,
				  key, value);
	*out = (uint32_t)(block_size * pct / 100.0);
	return 0;
}

int ff_opt_size(const char *codec, const char *key, const char *value, uint32_t block_size,
		uint32_t *out, struct ff_err *err)
{
	unsigned long long v;
	char *end;

	if (!value || !*value)
		return ff_err_set(err, EINVAL, "%s: option %s needs a size", codec, key);
	if (strchr(value, '%'))
		return parse_percent(codec, key, value, block_size, out, err);
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno || end == value || *value == '-')
		return ff_err_set(err, EINVAL, "%s: %s=%s: not a size", codec, key, value);
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end || v > UINT32_MAX)
		return ff_err_set(err, EINVAL, "%s: %s=%s: not a size (N, NK, NM or P%%)", codec,
				  key, value);
	*out = (uint32_t)v;
	return 0;
}

int ff_opt_is(const char *key, const char *const *spellings)
{
	for (; *spellings; spellings++)
		if (!strcasecmp(key, *spellings))
			return 1;
	return 0;
}

int ff_opt_unknown(const char *codec, const char *key, struct ff_err *err)
{
	return ff_err_set(err, EINVAL, "%s: unknown option '%s'", codec, key);
}

int ff_codec_reserve(uint8_t **buf, size_t *cap, size_t need, const char *codec,
		     struct ff_err *err)
{
	uint8_t *p;

	if (*cap >= need)
		return 0;
	p = realloc(*buf, need);
	if (!p)
		return ff_err_set(err, ENOMEM, "%s: out of memory (%zu bytes)", codec, need);
	*buf = p;
	*cap = need;
	return 0;
}

ssize_t ff_codec_smallest(void *state, ff_codec_variant_fn run, uint32_t mask, int count,
			  ssize_t best, uint8_t *scratch, const uint8_t *src, size_t n, uint8_t *dst,
			  size_t cap, struct ff_err *err)
{
	for (int i = 0; i < count; i++) {
		ssize_t got;

		if (!(mask & (1u << i)))
			continue;
		got = run(state, i, src, n, scratch, best ? (size_t)best - 1 : cap, err);
		if (got < 0)
			return -1;
		if (got > 0) {
			memcpy(dst, scratch, (size_t)got);
			best = got;
		}
	}
	return best;
}
