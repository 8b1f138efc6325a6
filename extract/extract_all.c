/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Every image in a blob (a firmware file, a flash dump): the blob scan
 * (image/scan.h) finds them, and each is opened through the pipeline with
 * a window at its offset and extracted into a directory named after its
 * offset and format, so two images of one format never share one. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "extract/extract.h"
#include "image/identify.h"
#include "image/scan.h"

struct all {
	struct ff_bsrc *blob;
	const struct ff_open_opts *oo;
	const struct ff_extract_opts *o;
	void (*each)(void *ctx, const struct ff_extract_each *e);
	void *ctx;
	unsigned found, failed;
};

/* Bytes the image at hit i may span: its probe's size when known, else up
 * to the next image found (a YAFFS2 scan would read on into it), else to
 * the end of the blob. */
static uint64_t span(const struct ff_scan_result *r, size_t i, uint64_t blob_size)
{
	uint64_t off = r->hits[i].off, end = i + 1 < r->n ? r->hits[i + 1].off : blob_size;

	if (r->hits[i].found.probe.size && r->hits[i].found.probe.size < end - off)
		return r->hits[i].found.probe.size;
	return end - off;
}

static void tell(struct all *a, struct ff_extract_each *e)
{
	if (a->each)
		a->each(a->ctx, e);
}

static void one(struct all *a, const struct ff_scan_result *r, size_t i)
{
	const struct ff_scan_hit *h = &r->hits[i];
	struct ff_extract_opts eo = *a->o;
	struct ff_extract_result res = {0};
	struct ff_err err = {0};
	char what[256], dir[4096];
	struct ff_extract_each e = {0, h->off, what, h->found.fmt->name, dir, 0, &res, &err};
	struct ff_bsrc *win;

	ff_found_describe(&h->found, what, sizeof(what));
	snprintf(dir, sizeof(dir), "%s/0x%llx-%s", a->o->dir ? a->o->dir : ".",
		 (unsigned long long)h->off, h->found.fmt->name);
	if (h->found.fmt->role == FF_ROLE_DETECT) {
		e.done = 1;
		e.rc = -1;
		tell(a, &e);
		return;
	}
	a->found++;
	tell(a, &e);
	eo.dir = dir;
	win = ff_bsrc_window(a->blob, h->off, span(r, i, a->blob->size), &err);
	e.rc = win ? ff_extract_src(win, a->oo, &eo, NULL, 0, &res, &err) : 2;
	ff_bsrc_unref(win);
	a->failed += e.rc != 0;
	e.done = 1;
	tell(a, &e);
}

static int scan_blob(struct all *a, struct ff_scan_result *r, struct ff_err *err)
{
	uint64_t start = a->oo ? a->oo->offset : 0;
	int rc = ff_scan(a->blob, start, UINT64_MAX, a->oo, r);

	if (rc < 0)
		return ff_err_sys(err, -rc, "%s: scan", a->blob->name);
	return 0;
}

static size_t extractable(const struct ff_scan_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += r->hits[i].found.fmt->role != FF_ROLE_DETECT;
	return n;
}

int ff_extract_all(const char *blob, const struct ff_open_opts *oo,
		   const struct ff_extract_opts *o,
		   void (*each)(void *ctx, const struct ff_extract_each *e), void *ctx,
		   struct ff_err *err)
{
	struct all a = {ff_bsrc_open(blob, err), oo, o, each, ctx, 0, 0};
	struct ff_scan_result r;

	if (!a.blob)
		return 2;
	if (scan_blob(&a, &r, err) < 0) {
		ff_bsrc_unref(a.blob);
		return 2;
	}
	if (!extractable(&r))
		ff_err_set(err, ENOENT, "%s: no image flashfs reads found in its %llu bytes", blob,
			   (unsigned long long)a.blob->size);
	else if (o->dir && mkdir(o->dir, 0755) < 0 && errno != EEXIST)
		ff_err_sys(err, errno, "%s", o->dir);
	else
		for (size_t i = 0; i < r.n; i++)
			one(&a, &r, i);
	ff_scan_result_free(&r);
	ff_bsrc_unref(a.blob);
	return !a.found ? 2 : a.failed ? 1 : 0;
}
