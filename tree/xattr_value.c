/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Values written in description files: numbers, and xattr values given
 * as "0x" hex (for binary ones such as security.capability) or as text. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ff_parse_u32(const char *s, int base, uint32_t max, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int ff_parse_i64(const char *s, int64_t *out)
{
	long long v;
	char *end;

	if (!*s || *s == ' ')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int ff_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ff_xattr_parse_value(const char *text, uint8_t **value, uint32_t *len, struct ff_err *err)
{
	size_t n = strlen(text);
	int hex = n >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	uint8_t *v;

	if (hex && (n % 2))
		return ff_err_set(err, EINVAL, "hex xattr value has an odd number of digits");
	v = malloc(n ? n : 1);
	if (!v)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (!hex) {
		memcpy(v, text, n);
		*len = (uint32_t)n;
		*value = v;
		return 0;
	}
	for (size_t i = 2; i < n; i += 2) {
		int hi = ff_hex_digit(text[i]), lo = ff_hex_digit(text[i + 1]);

		if (hi < 0 || lo < 0) {
			free(v);
			return ff_err_set(err, EINVAL, "bad hex digit in xattr value \"%.40s\"", text);
		}
		v[(i - 2) / 2] = (uint8_t)(hi * 16 + lo);
	}
	*len = (uint32_t)((n - 2) / 2);
	*value = v;
	return 0;
}

int ff_node_set_xattr_text(struct ff_node *n, const char *w, struct ff_err *err)
{
	const char *eq = strchr(w, '='), *dot = strchr(w, '.');
	char name[FF_NAME_MAX + 1];
	uint8_t *value;
	uint32_t len;
	int rc;

	if (!eq || !dot || dot > eq || dot == w || dot + 1 == eq)
		return ff_err_set(err, EINVAL, "xattr \"%.60s\": expected NAMESPACE.NAME=VALUE", w);
	if ((size_t)(eq - w) > FF_NAME_MAX)
		return ff_err_set(err, EINVAL, "xattr name longer than %d bytes", FF_NAME_MAX);
	memcpy(name, w, (size_t)(eq - w));
	name[eq - w] = '\0';
	if (ff_xattr_parse_value(eq + 1, &value, &len, err))
		return ff_err_prefix(err, "xattr \"%s\"", name);
	rc = ff_node_set_xattr(n, name, value, len, err);
	free(value);
	return rc;
}
