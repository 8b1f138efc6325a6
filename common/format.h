/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A format's descriptor: what the registry (image/registry.c, the only list
 * of formats) knows of each one.  Every format folder defines one
 * `const struct ff_format ff_format_NAME` and nothing above image/ ever asks
 * which format an image is: detection, unwrapping and opening are image/'s,
 * and what is opened is the one read interface of common/fs.h.
 *
 * A file system opens onto struct ff_fs.  A container (UBI, a compressed
 * stream, a NAND dump with OOB) unwraps into an inner byte source that is
 * detected again. */
#ifndef FF_COMMON_FORMAT_H
#define FF_COMMON_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "common/bsrc.h"
#include "common/error.h"
#include "common/flashmap.h"
#include "common/fs.h"

struct ff_build_ops;

/* What a probe saw at an offset. */
struct ff_probe {
	/* 0: not this format.  Otherwise how sure: FF_PROBE_MAGIC when only
	 * a magic matched, FF_PROBE_VALID when a superblock (or the format's
	 * first structure) decoded and passed its checks (CRC, sizes inside
	 * the source). */
	int confidence;
	int big_endian;       /* 1 big, 0 little, -1 not a property of the format */
	char version[16];     /* "4.0", "2.0", "" when the format has none */
	uint64_t size;        /* bytes the image spans from the offset; 0 unknown */
	char detail[128];     /* e.g. "erase block 64 KiB?", "block 4096, lz4" */
	/* Set by a costly probe that went past its cheap test, so a blob
	 * scan can bound how often it pays for the rest; with why, what made
	 * it say no (shown when the user gave a geometry it was meant for). */
	int deep;
	char why[256];
};

#define FF_PROBE_MAGIC 10
#define FF_PROBE_VALID 100

/* A byte string that starts an image (at `at` bytes into it): where a scan
 * of a blob looks.  A list ends with an entry of len 0. */
struct ff_magic {
	uint32_t at;
	uint8_t len;
	uint8_t bytes[8];
};

enum ff_format_role {
	FF_ROLE_FS,        /* opens onto common/fs.h */
	FF_ROLE_CONTAINER, /* unwraps to an inner byte source */
	FF_ROLE_DETECT,    /* named when found, nothing more (ext4, FAT, tar) */
};

/* A container's unwrapped inside; image/ keeps it with the inner image,
 * so `info` and `check` can show the container's layer too. */
struct ff_unwrapped {
	struct ff_bsrc *inner;  /* the bytes to detect again (one reference) */
	void *ctx;              /* the container's own state, or NULL */
	/* Optional: the container's facts for `info`, given before the inner
	 * image's (inner_format: the format found inside, NULL when none
	 * could be opened); the container's problems for `check`, with their
	 * count returned (0 = clean); and freeing ctx (after the inner image
	 * and its source are closed). */
	void (*info)(void *ctx, const char *inner_format, ff_info_fn fn, void *fctx);
	long (*check)(void *ctx, ff_problem_fn fn, void *pctx);
	void (*close)(void *ctx);
};

struct ff_format {
	const char *name;            /* "squashfs": --type and JSON */
	const char *title;           /* "SquashFS": messages */
	const char *const *aliases;  /* NULL-terminated, or NULL */
	enum ff_format_role role;
	/* Where a scan finds candidates: the magics (NULL when the format has
	 * none, like YAFFS2), else every scan_align bytes. */
	const struct ff_magic *magics;
	uint32_t scan_align;
	/* Non-zero when the probe reads much more than buf (YAFFS2's
	 * geometry detection, libblkid): it runs only when no other probe
	 * was sure. */
	int costly;
	/* Bytes from the offset a probe wants in buf (it may read more
	 * through src). */
	size_t probe_len;
	/* Fills *res and returns res->confidence (0: not this format).  src
	 * is the whole file or outer source; the candidate starts at off, and
	 * buf holds min(probe_len, src->size - off) bytes from there.  Must
	 * be cheap when the first bytes do not match, and never trust a
	 * length it has not checked against src->size. */
	int (*probe)(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		     const struct ff_open_opts *opts, struct ff_probe *res);
	/* FF_ROLE_FS: the image starts at byte 0 of src (image/ has applied
	 * opts->offset with a window: a format ignores it); takes its own
	 * reference to src.  NULL when the format is detected but not yet
	 * readable. */
	int (*open)(struct ff_bsrc *src, const struct ff_open_opts *opts, struct ff_fs **fs,
		    struct ff_err *err);
	/* FF_ROLE_CONTAINER: the inside of the container starting at byte 0
	 * of src. */
	int (*unwrap)(struct ff_bsrc *src, const struct ff_open_opts *opts,
		      struct ff_unwrapped *out, struct ff_err *err);
	/* The program that builds it, or NULL: for `flashfs formats`. */
	const char *builder;
	/* Optional: building an image from a tree/ source tree with the
	 * generic option set (tree/build.h), for services that build any
	 * format (the bench).  NULL: the format cannot be built that way. */
	const struct ff_build_ops *build;
	/* Optional: how the format's images go onto NAND when their pages
	 * carry more than page data (YAFFS2's tags, written to the OOB).
	 * With lay (the user's description), the map is built from it and
	 * src may be NULL (a dump has no image yet); without, it is detected
	 * from the image at byte 0 of src.  dev, when not NULL, is the device
	 * the map must fit: a mismatch is an error naming both geometries.
	 * Returns 1 with *map (ff_pagemap_release frees it), 0 when the image
	 * is plain page data (with lay: when the format has no page layout of
	 * its own), -1 with err.  NULL: always plain page data. */
	int (*flash_map)(struct ff_bsrc *src, const struct ff_flash_layout *lay,
			 const struct ff_flash_dev *dev, struct ff_pagemap *map,
			 struct ff_err *err);
};

#endif
