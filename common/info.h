/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Typed facts: what `flashfs info` shows and what a codec's options are.
 * A producer (a format's info, a codec) calls one ff_info_fn per item, in
 * a stable order; a consumer prints them as text or, through
 * ff_info_json, as JSON.  Nesting is explicit (an object or a list is
 * closed by FF_INFO_END), so the JSON keeps the types: numbers, booleans,
 * lists of names, objects of typed members and null. */
#ifndef FF_COMMON_INFO_H
#define FF_COMMON_INFO_H

#include <stdint.h>

#include "common/json.h"

enum ff_info_type {
	FF_INFO_STR,    /* str */
	FF_INFO_UINT,   /* num */
	FF_INFO_INT,    /* snum */
	FF_INFO_BOOL,   /* num: 0 or 1 */
	FF_INFO_NULL,   /* nothing known; str: the words a person reads ("none stored") */
	FF_INFO_OBJECT, /* members follow until FF_INFO_END */
	FF_INFO_LIST,   /* items (key NULL) follow until FF_INFO_END */
	FF_INFO_END,
};

struct ff_info_item {
	enum ff_info_type type;
	const char *key;   /* NULL inside a list and for FF_INFO_END */
	const char *str;
	uint64_t num;
	int64_t snum;
	/* Text output (flashfs info without --json).  A value: what a person
	 * reads when it differs from the value ("0x1000"; NULL: the value,
	 * a boolean as yes/no).  A group: its one line ("check,exportable"),
	 * or NULL to show its members as lines of their own. */
	const char *text;
	const char *text_key; /* the key in text output, when not key */
};

typedef void (*ff_info_fn)(void *ctx, const struct ff_info_item *item);

void ff_info_str(ff_info_fn fn, void *ctx, const char *key, const char *s);
void ff_info_uint(ff_info_fn fn, void *ctx, const char *key, uint64_t v);
void ff_info_int(ff_info_fn fn, void *ctx, const char *key, int64_t v);
void ff_info_bool(ff_info_fn fn, void *ctx, const char *key, int v);
/* A time: seconds since the epoch in JSON, ISO 8601 UTC in text (one key,
 * not a number and its date twice). */
void ff_info_time(ff_info_fn fn, void *ctx, const char *key, int64_t t);
void ff_info_null(ff_info_fn fn, void *ctx, const char *key, const char *text);
/* type is FF_INFO_OBJECT or FF_INFO_LIST. */
void ff_info_begin(ff_info_fn fn, void *ctx, enum ff_info_type type, const char *key,
		   const char *text);
void ff_info_end(ff_info_fn fn, void *ctx);
/* The names whose bit is set in mask, as a list (names ends with NULL). */
void ff_info_names(ff_info_fn fn, void *ctx, const char *key, uint32_t mask,
		   const char *const *names, const char *text);

/* The same names as text, joined by commas ("" for none). */
void ff_info_names_text(uint32_t mask, const char *const *names, char *buf, size_t cap);

/* An ff_info_fn writing each item to the ff_json given as ctx. */
void ff_info_json(void *json, const struct ff_info_item *item);

#endif
