/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Splitting one line of a description file into words, with shell-like
 * double quotes and backslash escapes so names may hold blanks and any
 * byte but NUL. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One escape after a backslash at *p; returns the byte, or -1. */
static int escape(const char **p)
{
	char c = *(*p)++;
	int v = 0, i;

	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'x':
		for (i = 0; i < 2 && ff_hex_digit(**p) >= 0; i++)
			v = v * 16 + ff_hex_digit(*(*p)++);
		return i ? v : -1;
	case '\0':
		(*p)--;
		return -1;
	}
	if (c >= '0' && c <= '7') {
		v = c - '0';
		for (i = 1; i < 3 && **p >= '0' && **p <= '7'; i++)
			v = v * 8 + (*(*p)++ - '0');
		return v > 255 ? -1 : v;
	}
	return (unsigned char)c;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* One word starting at *p into *out; advances both. */
static int word(const char **p, char **out, struct ff_err *err)
{
	int quoted = 0;

	while (**p && (quoted || !is_blank(**p))) {
		char c = *(*p)++;
		int b;

		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (c != '\\') {
			*(*out)++ = c;
			continue;
		}
		b = escape(p);
		if (b <= 0)
			return ff_err_set(err, EINVAL, b == 0 ? "escape gives a NUL byte"
							    : "bad backslash escape");
		*(*out)++ = (char)b;
	}
	if (quoted)
		return ff_err_set(err, EINVAL, "unterminated double quote");
	*(*out)++ = '\0';
	return 0;
}

int ff_tokenize(const char *line, struct ff_tokens *t, struct ff_err *err)
{
	const char *p = line;
	char *out;

	memset(t, 0, sizeof(*t));
	while (is_blank(*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	t->store = out = malloc(strlen(line) + 1);
	if (!out)
		return ff_err_set(err, ENOMEM, "out of memory");
	while (*p) {
		if (t->n == FF_MAX_TOKENS)
			return ff_err_set(err, E2BIG, "more than %d words on one line", FF_MAX_TOKENS);
		t->start[t->n] = (size_t)(p - line);
		t->v[t->n++] = out;
		if (word(&p, &out, err))
			return -1;
		while (is_blank(*p))
			p++;
	}
	return 0;
}

void ff_tokens_free(struct ff_tokens *t)
{
	free(t->store);
	memset(t, 0, sizeof(*t));
}
