/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one JSON writer, behind every --json output: typed values (strings,
 * unsigned and signed integers, reals, bools, null), nested objects and
 * arrays, commas and indentation kept by the writer.
 *
 * Strings are escaped as RFC 8259 asks: '"' and '\' with a backslash,
 * control characters below 0x20 as \u00XX; every other byte, UTF-8
 * included, passes through unchanged (a name that is not UTF-8 passes
 * through as its bytes).  Not thread-safe: one writer per stream. */
#ifndef FF_COMMON_JSON_H
#define FF_COMMON_JSON_H

#include <stdint.h>
#include <stdio.h>

#define FF_JSON_DEPTH_MAX 32

struct ff_json {
	FILE *f;
	int pretty;          /* each member on its own line, two spaces a level */
	unsigned depth;
	int after_key;       /* the next value completes a "key": pair */
	unsigned char has_member[FF_JSON_DEPTH_MAX];
	unsigned char is_array[FF_JSON_DEPTH_MAX];
};

/* pretty = 0: everything on one line, no blanks. */
void ff_json_init(struct ff_json *j, FILE *f, int pretty);
void ff_json_begin_object(struct ff_json *j);
void ff_json_end_object(struct ff_json *j);
void ff_json_begin_array(struct ff_json *j);
void ff_json_end_array(struct ff_json *j);
/* Closes the innermost open object or array, whichever it is. */
void ff_json_end(struct ff_json *j);
/* Ends the document with a newline. */
void ff_json_finish(struct ff_json *j);

/* Inside an object, each value follows its key. */
void ff_json_key(struct ff_json *j, const char *key);
void ff_json_str(struct ff_json *j, const char *s);
void ff_json_uint(struct ff_json *j, uint64_t v);
void ff_json_int(struct ff_json *j, int64_t v);
/* decimals < 0: printf's %g; NaN and infinities become null. */
void ff_json_real(struct ff_json *j, double v, int decimals);
void ff_json_bool(struct ff_json *j, int v);
void ff_json_null(struct ff_json *j);
/* text when it is a JSON number (e.g. a decimal count), else a string. */
void ff_json_number_text(struct ff_json *j, const char *text);

/* Key and value in one call. */
void ff_json_kv_str(struct ff_json *j, const char *key, const char *s);
void ff_json_kv_uint(struct ff_json *j, const char *key, uint64_t v);
void ff_json_kv_real(struct ff_json *j, const char *key, double v, int decimals);
void ff_json_kv_bool(struct ff_json *j, const char *key, int v);

/* The escaper on its own: s as one quoted JSON string. */
void ff_json_string(FILE *f, const char *s);

#endif
