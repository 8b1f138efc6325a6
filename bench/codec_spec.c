/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Codec configurations: the default set the issue names, parsing of
 * `-c NAME[:key=value...][@LABEL]`, and turning one into an ff_comp. */
#include "bench/bench.h"
#include "compress/compress.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void set(struct bench_codec *b, const char *label, const char *name, const char *opts)
{
	snprintf(b->label, sizeof(b->label), "%s", label);
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->opts, sizeof(b->opts), "%s", opts);
}

size_t bench_codec_defaults(struct bench_codec *out, size_t cap, const char *bcj)
{
	static const char *const tab[][3] = {
		/* libdeflate's levels (mkfs.squashfs' default is 9), then zlib's 9,
		 * mksquashfs' encoder: the same format, another speed and size. */
		{ "gzip-6", "gzip", "level=6" },
		{ "gzip-9", "gzip", "level=9" },
		{ "gzip-10", "gzip", "level=10" },
		{ "gzip-12", "gzip", "level=12" },
		{ "gzip-zlib9", "gzip", "zlib:level=9" },
		{ "lzo1x_999", "lzo", "algorithm=lzo1x_999" },
		{ "lzo1x_1", "lzo", "algorithm=lzo1x_1" },
		{ "xz", "xz", "" },
		{ "lz4", "lz4", "" },
		{ "lz4hc", "lz4", "hc" },
		{ "zstd-3", "zstd", "level=3" },
		{ "zstd-15", "zstd", "level=15" },
		{ "zstd-19", "zstd", "level=19" },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]) && n < cap; i++) {
		if (!strcmp(tab[i][1], "lzo") && !ff_comp_has_lzo())
			continue; /* built with make LZO=0 */
		set(&out[n++], tab[i][0], tab[i][1], tab[i][2]);
		if (!strcmp(tab[i][0], "xz") && bcj && n < cap) {
			char opt[32];

			snprintf(opt, sizeof(opt), "bcj=%s", bcj);
			set(&out[n++], "xz+bcj", "xz", opt);
		}
	}
	return n;
}

size_t bench_codec_quick(struct bench_codec *out, size_t cap, const char *bcj)
{
	/* one usual setting per family (xz with the corpus' filter when it
	 * has one), leaving out the slowest compressors (lzo1x_999, zstd-15:
	 * each setting is a real image per file system): --quick's budget */
	static const char *const tab[][3] = {
		{ "gzip-9", "gzip", "level=9" },   { "lz4", "lz4", "" },
		{ "lz4hc", "lz4", "hc" },          { "zstd-3", "zstd", "level=3" },
	};
	size_t n = 0;
	char opt[32];

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]) && n < cap; i++)
		if (strcmp(tab[i][1], "lzo") || ff_comp_has_lzo())
			set(&out[n++], tab[i][0], tab[i][1], tab[i][2]);
	snprintf(opt, sizeof(opt), "bcj=%s", bcj ? bcj : "");
	if (n < cap)
		set(&out[n++], bcj ? "xz+bcj" : "xz", "xz", bcj ? opt : "");
	return n;
}

/* A label when none is given: the name plus the option values. */
static void auto_label(struct bench_codec *b)
{
	char *o = b->label + strlen(b->name);
	size_t room = sizeof(b->label) - strlen(b->name);
	const char *p = b->opts;

	snprintf(b->label, sizeof(b->label), "%s", b->name);
	while (*p && room > 1) {
		const char *eq = strchr(p, '=');
		const char *end = strchr(p, ':');
		const char *v = eq && (!end || eq < end) ? eq + 1 : p;
		size_t len = end ? (size_t)(end - v) : strlen(v);
		int w = snprintf(o, room, "-%.*s", (int)len, v);

		if (w < 0 || (size_t)w >= room)
			break;
		o += w;
		room -= (size_t)w;
		p = end ? end + 1 : p + strlen(p);
	}
}

int bench_codec_parse(const char *text, struct bench_codec *out, struct ff_err *err)
{
	const char *colon = strchr(text, ':');
	const char *at = strchr(text, '@');
	size_t name_len = colon ? (size_t)(colon - text) : at ? (size_t)(at - text) : strlen(text);
	size_t opt_len;

	memset(out, 0, sizeof(*out));
	if (!name_len || name_len >= sizeof(out->name))
		return ff_err_set(err, EINVAL, "codec '%s': expected NAME[:key=value...][@LABEL]",
				  text);
	memcpy(out->name, text, name_len);
	if (colon && (!at || colon < at)) {
		opt_len = at ? (size_t)(at - colon - 1) : strlen(colon + 1);
		if (opt_len >= sizeof(out->opts))
			return ff_err_set(err, EINVAL, "codec '%s': options too long", text);
		memcpy(out->opts, colon + 1, opt_len);
	}
	if (at && at[1]) {
		if (strlen(at + 1) >= sizeof(out->label))
			return ff_err_set(err, EINVAL, "codec '%s': label too long", text);
		snprintf(out->label, sizeof(out->label), "%s", at + 1);
	} else {
		auto_label(out);
	}
	return 0;
}

struct ff_comp *bench_codec_open(const struct bench_codec *bc, uint32_t block_size,
				 struct ff_err *err)
{
	struct ff_comp *comp = ff_comp_new(bc->name, block_size, err);
	char opts[sizeof(bc->opts)];
	char *save = NULL;

	if (!comp)
		return NULL;
	snprintf(opts, sizeof(opts), "%s", bc->opts);
	for (char *kv = strtok_r(opts, ":", &save); kv; kv = strtok_r(NULL, ":", &save)) {
		if (ff_comp_set_option_str(comp, kv, err)) {
			ff_comp_free(comp);
			ff_err_prefix(err, "%s", bc->label);
			return NULL;
		}
	}
	return comp;
}
