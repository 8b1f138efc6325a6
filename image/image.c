/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one pipeline that opens an image: a byte source (the file, a window
 * at --offset), the registry's probes (identify.c), containers unwrapped
 * into inner sources and detected again, and a file system opened onto
 * common/fs.h.  No format is named here. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bytes.h"
#include "image/dir_fs.h"
#include "image/identify.h"
#include "image/image.h"
#include "image/layered_fs.h"
#include "image/unopened_fs.h"
#include "image/registry.h"
#include "image/scan.h"

/* Containers inside containers (a UBI volume holding a .xz holding
 * YAFFS2): a bound, so a crafted image cannot nest for ever. */
#define MAX_DEPTH 4
#define ERASED_SAMPLE (64u << 10)

static int open_at(struct ff_bsrc *src, const struct ff_open_opts *o, int depth,
		   struct ff_fs **fs, struct ff_err *err);

/* Nothing recognised inside a container: an erased (all 0xFF) volume is
 * called empty, so no hint points elsewhere. */
static int hinted(const struct ff_flash_hint *h)
{
	return h->page_size || h->oob_size || h->pages_per_block || h->erase_size ||
	       h->byte_order || h->oob_layout || h->tags;
}

static int unknown(struct ff_bsrc *src, const struct ff_found *f, const struct ff_open_opts *o,
		   int depth, struct ff_err *err)
{
	uint8_t buf[4096];
	uint64_t at = 0;

	/* A geometry given by hand was meant for a format: its reason. */
	if (f->why_fmt && hinted(&o->flash))
		return ff_err_set(err, EINVAL, "not an image under the geometry given (%s: %s)",
				  f->why_fmt->title, f->why);
	if (!depth)
		return ff_err_set(err, FF_IMAGE_UNKNOWN, "not an image flashfs knows "
				  "(see flashfs formats)");
	while (at < src->size && at < ERASED_SAMPLE) {
		ssize_t n = ff_bsrc_pread(src, buf, sizeof(buf), at);

		if (n <= 0 || !ff_all_bytes(buf, (size_t)n, 0xFF))
			return ff_err_set(err, ENODATA, "%s: holds no image flashfs knows", src->name);
		at += (uint64_t)n;
	}
	return ff_err_set(err, ENODATA, "%s: is empty (%s)", src->name,
			  src->size ? "erased flash, all 0xFF" : "0 bytes");
}

static int not_readable(const struct ff_found *f, struct ff_err *err)
{
	char what[256];

	ff_found_describe(f, what, sizeof(what));
	if (f->fmt->role == FF_ROLE_DETECT)
		return ff_err_set(err, ENOTSUP, "%s: not a flash image flashfs reads", what);
	return ff_err_set(err, ENOTSUP, "%s: not readable yet", what);
}

static int open_container(struct ff_bsrc *src, const struct ff_found *f,
			  const struct ff_open_opts *o, int depth, struct ff_fs **fs,
			  struct ff_err *err)
{
	struct ff_unwrapped u = {0};
	struct ff_fs *inner = NULL;

	if (depth >= MAX_DEPTH)
		return ff_err_set(err, ELOOP, "%s: containers nested more than %d deep", src->name,
				  MAX_DEPTH);
	if (f->fmt->unwrap(src, o, &u, err) < 0)
		return -1;
	if (open_at(u.inner, o, depth + 1, &inner, err) < 0) {
		if (!o->keep_container || (!u.info && !u.check) ||
		    !(inner = ff_unopened_fs(err->msg, err))) {
			ff_unwrapped_release(&u);
			return -1;
		}
	}
	if (!u.info && !u.check) { /* nothing of its own to show */
		ff_unwrapped_release(&u);
		*fs = inner;
		return 0;
	}
	*fs = ff_layered_fs(inner, &u, f->fmt->name, src->size, err);
	return *fs ? 0 : -1;
}

static int open_at(struct ff_bsrc *src, const struct ff_open_opts *o, int depth,
		   struct ff_fs **fs, struct ff_err *err)
{
	struct ff_found f;
	int rc = ff_identify(src, 0, o, &f);

	if (rc == -EMEDIUMTYPE)
		return unknown(src, &f, o, depth, err);
	if (rc < 0)
		return ff_err_sys(err, -rc, "%s", src->name);
	if (f.fmt->role == FF_ROLE_CONTAINER && f.fmt->unwrap)
		return open_container(src, &f, o, depth, fs, err);
	if (f.fmt->role != FF_ROLE_FS || !f.fmt->open)
		return not_readable(&f, err);
	return f.fmt->open(src, o, fs, err);
}

int ff_image_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		      struct ff_err *err)
{
	struct ff_open_opts o = opts ? *opts : (struct ff_open_opts){0};

	*fs = NULL;
	o.offset = 0; /* applied by the caller's window */
	return open_at(src, &o, 0, fs, err);
}

/* The file at path from opts->offset on. */
struct ff_bsrc *ff_image_source(const char *path, uint64_t offset, struct ff_err *err)
{
	struct ff_bsrc *file = ff_bsrc_open(path, err), *src;

	if (!file || !offset)
		return file;
	src = ff_bsrc_window(file, offset, UINT64_MAX, err);
	ff_bsrc_unref(file);
	return src;
}

int ff_image_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err)
{
	struct stat st;
	struct ff_bsrc *src;
	int rc;

	*fs = NULL;
	if (opts && opts->directories && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return ff_dir_fs_open(path, fs, err);
	src = ff_image_source(path, opts ? opts->offset : 0, err);
	if (!src)
		return -1;
	rc = ff_image_open_src(src, opts, fs, err);
	ff_bsrc_unref(src);
	return rc;
}

/* With the user's layout: the first format that builds a map from one
 * builds it (today one format does; a second would need the user to say
 * which). */
static int map_from_layout(const struct ff_flash_layout *lay, const struct ff_flash_dev *dev,
			   struct ff_pagemap *map, struct ff_err *err)
{
	for (size_t i = 0; i < ff_format_count(); i++) {
		const struct ff_format *f = ff_format_at(i);
		int rc = f->flash_map ? f->flash_map(NULL, lay, dev, map, err) : 0;

		if (rc)
			return rc;
	}
	return ff_err_set(err, ENOTSUP, "no format flashfs knows has a page layout");
}

int ff_image_flash_map(struct ff_bsrc *src, const struct ff_flash_layout *lay,
		       const struct ff_flash_dev *dev, struct ff_pagemap *map, struct ff_err *err)
{
	struct ff_found f;
	int rc;

	memset(map, 0, sizeof(*map));
	if (lay)
		return map_from_layout(lay, dev, map, err);
	rc = ff_identify(src, 0, NULL, &f);
	if (rc == -EMEDIUMTYPE)
		return ff_err_set(err, FF_IMAGE_UNKNOWN, "not an image flashfs knows");
	if (rc < 0)
		return ff_err_sys(err, -rc, "%s", src->name);
	if (f.fmt->role == FF_ROLE_DETECT)
		return not_readable(&f, err);
	return f.fmt->flash_map ? f.fmt->flash_map(src, NULL, dev, map, err) : 0;
}

const char *ff_image_locate(const char *path, const struct ff_open_opts *opts, uint64_t *found,
			    char *buf, size_t cap)
{
	struct ff_bsrc *src = ff_bsrc_open(path, NULL);
	struct ff_scan_result r;
	const char *what = NULL;

	if (!src)
		return NULL;
	if (ff_scan(src, 1, FF_IMAGE_SCAN_BYTES, opts, &r) == 0) {
		for (size_t i = 0; i < r.n && !what; i++)
			if (r.hits[i].found.fmt->role != FF_ROLE_DETECT) {
				ff_found_describe(&r.hits[i].found, buf, cap);
				*found = r.hits[i].off;
				what = buf;
			}
		ff_scan_result_free(&r);
	}
	ff_bsrc_unref(src);
	return what;
}

int ff_image_container_info(struct ff_bsrc *src, const struct ff_open_opts *opts, ff_info_fn fn,
			    void *ctx, struct ff_err *err)
{
	struct ff_open_opts o = opts ? *opts : (struct ff_open_opts){0};
	struct ff_unwrapped u = {0};
	struct ff_found f, in;

	if (ff_identify(src, 0, &o, &f) < 0 || f.fmt->role != FF_ROLE_CONTAINER || !f.fmt->unwrap)
		return ff_err_set(err, EINVAL, "%s: not a container", src->name);
	if (f.fmt->unwrap(src, &o, &u, err) < 0)
		return -1;
	if (u.info)
		u.info(u.ctx, ff_identify(u.inner, 0, &o, &in) == 0 ? in.fmt->name : NULL, fn, ctx);
	ff_unwrapped_release(&u);
	return 0;
}
