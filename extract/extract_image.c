/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An image path to a directory: opened through the one pipeline
 * (image/image.h), so extraction never asks which format it reads; the
 * default target named after whatever format that was. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "extract/extract.h"
#include "image/image.h"

static void damage_warn(void *ctx, const char *what)
{
	const struct ff_extract_opts *o = ctx;

	ff_warnf(o->warn, o->warn_ctx, FF_WARN_DAMAGED, NULL, "%s", what);
}

/* The number of problems the open found (a scan that reads every page). */
static long open_damage(struct ff_fs *fs, const struct ff_extract_opts *o)
{
	long n = fs->ops->open_problems ? fs->ops->open_problems(fs, damage_warn, (void *)o) : 0;

	return n > 0 ? n : 0;
}

int ff_extract_src(struct ff_bsrc *src, const struct ff_open_opts *oo,
		   const struct ff_extract_opts *o, const char *const *paths, size_t n,
		   struct ff_extract_result *res, struct ff_err *err)
{
	struct ff_extract_result own;
	struct ff_extract_opts eo = *o;
	struct ff_fs *fs;
	int rc;

	if (!res)
		res = &own;
	memset(res, 0, sizeof(*res));
	if (ff_image_open_src(src, oo, &fs, err) < 0)
		return 2;
	res->opened = 1;
	res->format = fs->ops->format;
	if (o->dir)
		snprintf(res->dir, sizeof(res->dir), "%s", o->dir);
	else
		snprintf(res->dir, sizeof(res->dir), "%s-root", fs->ops->format);
	eo.dir = res->dir;
	eo.prefetch = src;
	rc = ff_extract_fs(fs, &eo, paths, n, err);
	if (rc < 2 && (res->damaged = open_damage(fs, o)) > 0)
		rc = 1;
	ff_fs_close(fs);
	return rc;
}

int ff_extract_image(const char *image, const struct ff_open_opts *oo,
		     const struct ff_extract_opts *o, const char *const *paths, size_t n,
		     struct ff_extract_result *res, struct ff_err *err)
{
	struct ff_bsrc *src = ff_image_source(image, oo ? oo->offset : 0, err);
	int rc;

	if (res)
		memset(res, 0, sizeof(*res));
	if (!src)
		return 2;
	rc = ff_extract_src(src, oo, o, paths, n, res, err);
	ff_bsrc_unref(src);
	return rc;
}
