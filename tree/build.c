/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The build hook's option set (tree/build.h). */
#include "tree/build.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void ff_build_opts_init(struct ff_build_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->time = -1;
}

int ff_build_has_codec(const struct ff_build_ops *b, const char *codec)
{
	for (const char *const *c = b->codecs; c && *c; c++)
		if (!strcmp(*c, codec))
			return 1;
	return 0;
}

/* The length of a flag's name: up to its '='. */
static size_t name_len(const char *flag)
{
	return strcspn(flag, "=");
}

const struct ff_build_flag *ff_build_flag_find(const struct ff_build_ops *b, const char *name)
{
	size_t n = name_len(name);

	for (const struct ff_build_flag *f = b->flags; f && f->name; f++)
		if (strlen(f->name) == n && !strncmp(f->name, name, n))
			return f;
	return NULL;
}

int ff_build_check_flags(const struct ff_build_ops *b, const struct ff_build_opts *o,
			 const char *fmt_title, struct ff_err *err)
{
	char list[256] = "";
	size_t k = 0;

	for (size_t i = 0; i < o->n_flags; i++) {
		if (ff_build_flag_find(b, o->flags[i]))
			continue;
		for (const struct ff_build_flag *f = b->flags; f && f->name && k < sizeof(list); f++)
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", k ? ", " : "",
					      f->name);
		return ff_err_set(err, EINVAL, "%s takes no option '%s' (it takes: %s)",
				  fmt_title, o->flags[i], k ? list : "none");
	}
	return 0;
}

const char *ff_build_flag_value(const struct ff_build_opts *o, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = o->n_flags; i-- > 0;) {
		const char *f = o->flags[i];

		if (name_len(f) == n && !strncmp(f, name, n))
			return f[n] == '=' ? f + n + 1 : "";
	}
	return NULL;
}

/* The fixed setting "NAME[:opts][@LABEL]" s, split: name length, options. */
static size_t fixed_name(const char *s, const char **opts, size_t *opts_len)
{
	size_t n = strcspn(s, ":@");

	*opts = s[n] == ':' ? s + n + 1 : s + n;
	*opts_len = strcspn(*opts, "@");
	return n;
}

const char *ff_build_fixed_find(const struct ff_build_ops *b, const char *codec)
{
	for (const char *const *f = b->fixed; f && *f; f++) {
		const char *opts;
		size_t len, n = fixed_name(*f, &opts, &len);

		if (strlen(codec) == n && !strncmp(*f, codec, n))
			return *f;
	}
	return NULL;
}

int ff_build_fixed_check(const struct ff_build_ops *b, const struct ff_build_opts *o,
			 const char *fmt_title, struct ff_err *err)
{
	const char *codec = o->codec ? o->codec : "", *given = o->codec_opts ? o->codec_opts : "";
	const char *f = b->fixed ? ff_build_fixed_find(b, codec) : NULL, *opts;
	size_t len;

	if (!b->fixed)
		return 0;
	if (!f)
		return ff_err_set(err, ENOTSUP, "%s cannot store codec '%s'", fmt_title, codec);
	fixed_name(f, &opts, &len);
	if (!*given || (strlen(given) == len && !strncmp(given, opts, len)))
		return 0;
	return ff_err_set(err, ENOTSUP, "%s %s: its builder has one setting (%.*s), not '%s'",
			  fmt_title, codec, (int)len, opts, given);
}
