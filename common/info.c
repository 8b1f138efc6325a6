/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/info.h"

#include <stdio.h>
#include <time.h>

void ff_info_str(ff_info_fn fn, void *ctx, const char *key, const char *s)
{
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_STR, .key = key, .str = s });
}

void ff_info_uint(ff_info_fn fn, void *ctx, const char *key, uint64_t v)
{
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_UINT, .key = key, .num = v });
}

void ff_info_int(ff_info_fn fn, void *ctx, const char *key, int64_t v)
{
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_INT, .key = key, .snum = v });
}

void ff_info_time(ff_info_fn fn, void *ctx, const char *key, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char iso[64] = "";

	if (gmtime_r(&tt, &tm))
		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_INT, .key = key, .snum = t,
					.text = iso[0] ? iso : NULL });
}

void ff_info_bool(ff_info_fn fn, void *ctx, const char *key, int v)
{
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_BOOL, .key = key, .num = v != 0 });
}

void ff_info_null(ff_info_fn fn, void *ctx, const char *key, const char *text)
{
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_NULL, .key = key, .str = text });
}

void ff_info_begin(ff_info_fn fn, void *ctx, enum ff_info_type type, const char *key,
		   const char *text)
{
	fn(ctx, &(struct ff_info_item){ .type = type, .key = key, .text = text });
}

void ff_info_end(ff_info_fn fn, void *ctx)
{
	fn(ctx, &(struct ff_info_item){ .type = FF_INFO_END });
}

void ff_info_names(ff_info_fn fn, void *ctx, const char *key, uint32_t mask,
		   const char *const *names, const char *text)
{
	ff_info_begin(fn, ctx, FF_INFO_LIST, key, text);
	for (int i = 0; names[i] && i < 32; i++)
		if (mask & (1u << i))
			ff_info_str(fn, ctx, NULL, names[i]);
	ff_info_end(fn, ctx);
}

void ff_info_names_text(uint32_t mask, const char *const *names, char *buf, size_t cap)
{
	size_t used = 0;

	if (cap)
		buf[0] = '\0';
	for (int i = 0; names[i] && i < 32 && used < cap; i++)
		if (mask & (1u << i))
			used += (size_t)snprintf(buf + used, cap - used, "%s%s", used ? "," : "",
						 names[i]);
}

void ff_info_json(void *json, const struct ff_info_item *it)
{
	struct ff_json *j = json;

	if (it->type == FF_INFO_END) {
		ff_json_end(j);
		return;
	}
	if (it->key)
		ff_json_key(j, it->key);
	switch (it->type) {
	case FF_INFO_STR: ff_json_str(j, it->str ? it->str : ""); break;
	case FF_INFO_UINT: ff_json_uint(j, it->num); break;
	case FF_INFO_INT: ff_json_int(j, it->snum); break;
	case FF_INFO_BOOL: ff_json_bool(j, (int)it->num); break;
	case FF_INFO_NULL: ff_json_null(j); break;
	case FF_INFO_OBJECT: ff_json_begin_object(j); break;
	case FF_INFO_LIST: ff_json_begin_array(j); break;
	case FF_INFO_END: break;
	}
}
