/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Which format is at an offset: every registered probe is asked, the
 * surest answer wins (the first registered among equals).  Costly probes
 * run only when no cheap one was sure. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "image/identify.h"
#include "image/registry.h"

#define PROBE_MAX (64u << 10)

static size_t probe_bytes(void)
{
	size_t most = 0;

	for (size_t i = 0; i < ff_format_count(); i++)
		if (ff_format_at(i)->probe_len > most)
			most = ff_format_at(i)->probe_len;
	return most < PROBE_MAX ? most : PROBE_MAX;
}

int ff_probe_one(const struct ff_format *f, struct ff_bsrc *src, uint64_t off,
		 const uint8_t *buf, size_t len, const struct ff_open_opts *opts,
		 struct ff_probe *res)
{
	memset(res, 0, sizeof(*res));
	res->big_endian = -1;
	if (!f->probe)
		return 0;
	return f->probe(src, off, buf, len < f->probe_len ? len : f->probe_len, opts, res);
}

static void try_all(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		    const struct ff_open_opts *opts, int costly, struct ff_found *best)
{
	for (size_t i = 0; i < ff_format_count(); i++) {
		const struct ff_format *f = ff_format_at(i);
		struct ff_probe res;

		if (!f->costly != !costly)
			continue;
		if (ff_probe_one(f, src, off, buf, len, opts, &res) > best->probe.confidence) {
			best->fmt = f;
			best->probe = res;
		} else if (*res.why && !best->why_fmt) {
			best->why_fmt = f;
			memcpy(best->why, res.why, sizeof(best->why));
		}
	}
}

int ff_identify(struct ff_bsrc *src, uint64_t off, const struct ff_open_opts *opts,
		struct ff_found *found)
{
	size_t want = probe_bytes(), len = 0;
	uint8_t *buf = malloc(want ? want : 1);

	memset(found, 0, sizeof(*found));
	if (!buf)
		return -ENOMEM;
	if (off < src->size) {
		ssize_t n = ff_bsrc_pread(src, buf, want, off);

		if (n < 0) {
			free(buf);
			return (int)n;
		}
		len = (size_t)n;
	}
	try_all(src, off, buf, len, opts, 0, found);
	if (found->probe.confidence < FF_PROBE_VALID)
		try_all(src, off, buf, len, opts, 1, found);
	free(buf);
	return found->fmt ? 0 : -EMEDIUMTYPE;
}

/* "a" or "an" by the first letter, as the titles are pronounced. */
static const char *article(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) && word[0] != 'U' ? "an" : "a";
}

void ff_found_describe(const struct ff_found *f, char *buf, size_t cap)
{
	const struct ff_probe *p = &f->probe;
	int detect = f->fmt->role == FF_ROLE_DETECT;
	const char *sep = " (";
	size_t n;

	snprintf(buf, cap, "%s %s%s", article(f->fmt->title), f->fmt->title, detect ? "" : " image");
	n = strlen(buf);
	if (*p->detail && detect && n < cap) {
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", sep, p->detail);
		sep = ", ";
	}
	if (*p->version && n < cap) {
		n += (size_t)snprintf(buf + n, cap - n, "%sversion %s", sep, p->version);
		sep = ", ";
	}
	if (p->big_endian >= 0 && n < cap) {
		n += (size_t)snprintf(buf + n, cap - n, "%s%s-endian", sep,
				      p->big_endian ? "big" : "little");
		sep = ", ";
	}
	if (*p->detail && !detect && n < cap) {
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", sep, p->detail);
		sep = ", ";
	}
	if (*sep == ',' && n < cap)
		snprintf(buf + n, cap - n, ")");
}
