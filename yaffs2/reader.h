/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Opening a YAFFS2 image or raw NAND dump for reading: a full scan as the
 * kernel does it.  The result implements the read interface of common/fs.h. */
#ifndef FF_YAFFS2_READER_H
#define FF_YAFFS2_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/fs.h"

/* Geometry a caller knows (from ff_open_opts.flash), so that detection
 * tries only that. */
struct ff_yaffs2_opts {
	uint32_t page_size, oob_size, pages_per_block; /* 0 = detect */
	const char *oob_layout; /* "linux", "offset0", "inband"; NULL = detect */
	const char *tags;       /* "kernel", "classic"; NULL = either */
	int big_endian;         /* -1 detect, 0 little, 1 big */
};

/* The geometry in opts->flash as detection takes it; NULL when opts
 * gives none (detect everything). */
const struct ff_yaffs2_opts *ff_yaffs2_opts_of(const struct ff_open_opts *o,
					       struct ff_yaffs2_opts *buf);

/* Non-zero when the file looks like a YAFFS2 image under the geometry in
 * opts (or any known geometry and layout where opts leaves them 0). */
int ff_yaffs2_probe(const char *path, const struct ff_open_opts *opts);
/* The same for the image at byte 0 of src (opts->offset not applied). */
int ff_yaffs2_probe_src(struct ff_bsrc *src, const struct ff_open_opts *opts);

/* 1 when a YAFFS2 image starts at byte off of src, 0 when not.  buf holds len bytes from off, which must decode as
 * an object header before the geometry detection is tried there (-1 when
 * they do not, and nothing more was read). */
int ff_yaffs2_probe_at(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		       const struct ff_open_opts *opts);

/* The image at opts->offset of the file at path. */
int ff_yaffs2_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		   struct ff_err *err);
/* The image at byte 0 of src (opts->offset not applied). */
int ff_yaffs2_open_src(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		       struct ff_err *err);

#endif
