/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public extraction (<flashfs/extract.h>) over the service of
 * extract.h: options read up to the size the caller's struct has, warnings
 * given the public kinds, progress turned into running totals. */
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include <flashfs/extract.h>

#include "common/api_error.h"
#include "common/pool.h"
#include "extract/extract.h"

struct api {
	struct ff_extract_options o; /* the caller's, completed with defaults */
	atomic_uint_fast64_t bytes, entries;
	uint64_t bytes_total, entries_total;
};

void ff_extract_options_init(struct ff_extract_options *o, size_t size)
{
	memset(o, 0, size);
	if (size >= sizeof(o->size))
		o->size = size;
}

/* The caller's options as far as its struct goes, the defaults beyond. */
static void options_of(const struct ff_extract_options *in, struct ff_extract_options *o)
{
	size_t n = in && in->size < sizeof(*o) ? in->size : sizeof(*o);

	memset(o, 0, sizeof(*o));
	if (in && n >= sizeof(in->size))
		memcpy(o, in, n);
	o->size = sizeof(*o);
}

static void api_warn(void *ctx, const struct ff_warning *w)
{
	struct api *a = ctx;
	struct ff_extract_warning pw = {FF_EXTRACT_FAILED, w->path, w->msg};

	if (!a->o.warn)
		return;
	switch (w->kind) {
	case FF_WARN_FAILED: break;
	case FF_WARN_NOT_PERMITTED: pw.kind = FF_EXTRACT_NOT_PERMITTED; break;
	case FF_WARN_CASE_COLLISION: pw.kind = FF_EXTRACT_CASE_COLLISION; break;
	case FF_WARN_DAMAGED: pw.kind = FF_EXTRACT_DAMAGED; break;
	default: pw.kind = FF_EXTRACT_NOTE; break; /* a reader's remark */
	}
	a->o.warn(a->o.warn_ctx, &pw);
}

static void api_totals(void *ctx, uint64_t bytes, uint64_t items)
{
	struct api *a = ctx;
	struct ff_extract_progress p = {0, bytes, 0, items};

	a->bytes_total = bytes;
	a->entries_total = items;
	a->o.progress(a->o.progress_ctx, &p);
}

static void api_progress(void *ctx, uint64_t bytes, uint64_t items)
{
	struct api *a = ctx;
	struct ff_extract_progress p = {atomic_fetch_add(&a->bytes, bytes) + bytes,
					a->bytes_total,
					atomic_fetch_add(&a->entries, items) + items,
					a->entries_total};

	a->o.progress(a->o.progress_ctx, &p);
}

static int jobs_of(unsigned jobs)
{
	if (jobs)
		return jobs > 1024 ? 1024 : (int)jobs;
	return (int)ff_online_cpus();
}

int ff_extract(const char *image, const char *dir, const char *const *paths, size_t n,
	       const struct ff_extract_options *opts, struct ff_error *error)
{
	struct api a;
	struct ff_open_opts oo = {0};
	struct ff_extract_opts eo = {0};
	struct ff_extract_result res;
	struct ff_err err = {0, ""};
	int rc;

	ff_api_clear(error);
	options_of(opts, &a.o);
	atomic_init(&a.bytes, 0);
	atomic_init(&a.entries, 0);
	a.bytes_total = a.entries_total = 0;
	oo.offset = a.o.offset;
	oo.cache_bytes = a.o.cache_bytes;
	oo.log = api_warn; /* damage met while reading */
	oo.log_ctx = &a;
	eo = (struct ff_extract_opts){dir, jobs_of(a.o.jobs), a.o.force, 0, a.o.warn_case,
				      api_warn, &a, NULL, NULL, &a, NULL};
	if (a.o.progress) {
		eo.totals = api_totals;
		eo.progress = api_progress;
	}
	rc = ff_extract_image(image, &oo, &eo, paths, n, &res, &err);
	if (rc < 2)
		return rc;
	/* the image named once, whether or not the reader named it */
	if (!res.opened && (strncmp(err.msg, image, strlen(image)) || err.msg[strlen(image)] != ':'))
		ff_err_prefix(&err, "%s", image);
	return ff_api_error(error, &err);
}
