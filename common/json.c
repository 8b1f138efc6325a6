/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void ff_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void ff_json_init(struct ff_json *j, FILE *f, int pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void newline(struct ff_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->f);
	for (unsigned i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Before a value or a key: the comma and line break it needs. */
static void member(struct ff_json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth == 0)
		return;
	if (j->has_member[j->depth])
		fputc(',', j->f);
	j->has_member[j->depth] = 1;
	newline(j);
}

static void begin(struct ff_json *j, char c)
{
	member(j);
	fputc(c, j->f);
	if (j->depth + 1 < FF_JSON_DEPTH_MAX)
		j->depth++;
	j->has_member[j->depth] = 0;
	j->is_array[j->depth] = c == '[';
}

static void end(struct ff_json *j, char c)
{
	int had = j->has_member[j->depth];

	if (j->depth)
		j->depth--;
	if (had)
		newline(j);
	fputc(c, j->f);
}

void ff_json_begin_object(struct ff_json *j) { begin(j, '{'); }
void ff_json_end_object(struct ff_json *j) { end(j, '}'); }
void ff_json_begin_array(struct ff_json *j) { begin(j, '['); }
void ff_json_end_array(struct ff_json *j) { end(j, ']'); }

void ff_json_end(struct ff_json *j)
{
	end(j, j->is_array[j->depth] ? ']' : '}');
}

void ff_json_finish(struct ff_json *j)
{
	fputc('\n', j->f);
}

void ff_json_key(struct ff_json *j, const char *key)
{
	member(j);
	ff_json_string(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->after_key = 1;
}

void ff_json_str(struct ff_json *j, const char *s)
{
	member(j);
	ff_json_string(j->f, s ? s : "");
}

void ff_json_uint(struct ff_json *j, uint64_t v)
{
	member(j);
	fprintf(j->f, "%" PRIu64, v);
}

void ff_json_int(struct ff_json *j, int64_t v)
{
	member(j);
	fprintf(j->f, "%" PRId64, v);
}

void ff_json_real(struct ff_json *j, double v, int decimals)
{
	member(j);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (decimals < 0)
		fprintf(j->f, "%g", v);
	else
		fprintf(j->f, "%.*f", decimals, v);
}

void ff_json_bool(struct ff_json *j, int v)
{
	member(j);
	fputs(v ? "true" : "false", j->f);
}

void ff_json_null(struct ff_json *j)
{
	member(j);
	fputs("null", j->f);
}

/* A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int is_number(const char *s)
{
	size_t n;

	s += *s == '-';
	n = strspn(s, "0123456789");
	if (!n || (s[0] == '0' && n > 1))
		return 0;
	s += n;
	if (*s == '.') {
		n = strspn(++s, "0123456789");
		if (!n)
			return 0;
		s += n;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '+' || *s == '-';
		n = strspn(s, "0123456789");
		if (!n)
			return 0;
		s += n;
	}
	return !*s;
}

void ff_json_number_text(struct ff_json *j, const char *text)
{
	member(j);
	if (is_number(text))
		fputs(text, j->f);
	else
		ff_json_string(j->f, text);
}

void ff_json_kv_str(struct ff_json *j, const char *key, const char *s)
{
	ff_json_key(j, key);
	ff_json_str(j, s);
}

void ff_json_kv_uint(struct ff_json *j, const char *key, uint64_t v)
{
	ff_json_key(j, key);
	ff_json_uint(j, v);
}

void ff_json_kv_real(struct ff_json *j, const char *key, double v, int decimals)
{
	ff_json_key(j, key);
	ff_json_real(j, v, decimals);
}

void ff_json_kv_bool(struct ff_json *j, const char *key, int v)
{
	ff_json_key(j, key);
	ff_json_bool(j, v);
}
