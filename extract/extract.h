/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The extraction service behind `flashfs extract` and libflashfs's
 * <flashfs/extract.h>.  Everything it creates is reached from one directory
 * fd, by names checked one at a time and opened with O_NOFOLLOW (or openat2
 * RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS for stored paths), so nothing in the
 * image can make it write outside that directory.  It prints nothing:
 * warnings and progress go to the caller's callbacks. */
#ifndef FF_EXTRACT_EXTRACT_H
#define FF_EXTRACT_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"
#include "common/warn.h"

struct ff_extract_opts {
	const char *dir;   /* target directory (created if missing); NULL in
			    * ff_extract_image: "FORMAT-root" (squashfs-root) */
	int jobs;          /* file-writing threads, >= 1 */
	int force;         /* replace existing non-directories */
	int umask_cleared; /* the caller set umask(0): files are created with
			    * their final permission bits, saving a chmod */
	int warn_case;     /* warn about names equal when case is ignored even
			    * where the target tells case apart */
	/* Each entry that failed (FF_WARN_FAILED, path = where it goes below
	 * dir), what privileges were missing (FF_WARN_NOT_PERMITTED, once a
	 * kind), names equal but for case (FF_WARN_CASE_COLLISION) and, from
	 * ff_extract_image, the damage the open found (FF_WARN_DAMAGED).
	 * Called from several threads at once. */
	ff_warn_fn warn;
	void *warn_ctx;
	/* Optional: totals(ctx, bytes, items) once, before anything is
	 * written (regular files' sizes, each hard-linked file once; every
	 * entry), then progress(ctx, bytes, 1) as each entry is done.
	 * progress is called from several threads at once.  Counting the
	 * totals walks the metadata: it is done only when both are set. */
	void (*totals)(void *ctx, uint64_t bytes, uint64_t items);
	void (*progress)(void *ctx, uint64_t bytes, uint64_t items);
	void *progress_ctx;
	/* The image's byte source, streamed into the page cache ahead of a
	 * whole-image extraction where it is a file; NULL: no prefetch. */
	struct ff_bsrc *prefetch;
};

/* Extracts each of paths (or the whole image when n == 0) from an open
 * image.  Returns 0 when everything was restored, 1 when something was
 * skipped or failed (each reported through o->warn), 2 when nothing could
 * be done (err says why). */
int ff_extract_fs(struct ff_fs *fs, const struct ff_extract_opts *o, const char *const *paths,
		  size_t n, struct ff_err *err);

/* What ff_extract_image did besides its result. */
struct ff_extract_result {
	int opened;          /* 0: the image did not open (err is the open's) */
	const char *format;  /* the format opened (fs->ops->format), or NULL */
	long damaged;        /* problems the open found (each a FF_WARN_DAMAGED) */
	char dir[4096];      /* the target directory used */
};

/* Opens image through the pipeline (image/image.h: format detected,
 * containers unwrapped, oo->offset applied as a window) and extracts it as
 * ff_extract_fs does.  Damage the open already found (a YAFFS2 image cut
 * short) is reported as FF_WARN_DAMAGED warnings after the extraction and
 * makes the result 1 even when every entry present was written.  res may
 * be NULL. */
int ff_extract_image(const char *image, const struct ff_open_opts *oo,
		     const struct ff_extract_opts *o, const char *const *paths, size_t n,
		     struct ff_extract_result *res, struct ff_err *err);

/* The same for an image at byte 0 of src (oo->offset not applied). */
int ff_extract_src(struct ff_bsrc *src, const struct ff_open_opts *oo,
		   const struct ff_extract_opts *o, const char *const *paths, size_t n,
		   struct ff_extract_result *res, struct ff_err *err);

/* One image ff_extract_all found: called with done 0 before it is
 * extracted, and with done 1 after (rc as ff_extract_image's, err its
 * message when rc is 2). */
struct ff_extract_each {
	int done;
	uint64_t off;
	const char *what;   /* "a SquashFS image (4.0, ...)" */
	const char *format; /* the registry's name: "squashfs" */
	const char *dir;    /* DIR/0x1234-squashfs */
	int rc;
	const struct ff_extract_result *res;
	const struct ff_err *err;
};

/* Every image the blob scan (image/scan.h) finds in blob, each extracted
 * through the pipeline with a window at its offset into its own directory
 * o->dir/<offset in hex>-<format> (o->dir created if missing).  Images the
 * registry only names (FF_ROLE_DETECT: ext4, tar) are passed to each with
 * rc -1 and not extracted.  An image whose size its probe did not tell
 * ends where the next one found begins.  o->dir NULL: the current
 * directory.  Returns 0 when every image was extracted, 1
 * when some failed, 2 when none was found or the blob could not be read
 * (err says which). */
int ff_extract_all(const char *blob, const struct ff_open_opts *oo,
		   const struct ff_extract_opts *o,
		   void (*each)(void *ctx, const struct ff_extract_each *e), void *ctx,
		   struct ff_err *err);

#endif
