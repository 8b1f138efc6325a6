/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A format's build hook (struct ff_format's `build`): an image from a
 * finished source tree, with one option set every format understands, so
 * a service (the bench) can build any registered format without naming it.
 *
 *   const struct ff_build_ops *b = ff_format_at(i)->build;
 *   struct ff_build_opts o;
 *   ff_build_opts_init(&o);
 *   o.codec = "zstd"; o.codec_opts = "level=15"; o.block_size = 65536;
 *   b->build(tree, &o, "out.img", &res, &err);
 *
 * The codec is named as compress/ names it ("gzip", "xz", "lz4", "zstd",
 * "lzo") with compress/'s "key=value:..." options ("level=9", "hc",
 * "bcj=x86"); a format maps them onto its own (EROFS calls gzip deflate,
 * lz4 with hc lz4hc) and refuses, with a message naming the codec or
 * option, what it cannot store.  The same options through the format's
 * program (mkfs.squashfs, ffmkfs.erofs, ffmkfs.jffs2, ffmkfs.ubifs) give
 * the same bytes.  "none" names no compression (JFFS2, UBIFS store it).
 *
 * A flash file system (JFFS2, UBIFS) is built for a flash: the geometry
 * fields say which (0: the format's default), and `media` says which
 * kinds of flash a format's images suit, so a bench for a NOR part tries
 * JFFS2 and one for a NAND part UBIFS, and SquashFS or EROFS on both. */
#ifndef FF_TREE_BUILD_H
#define FF_TREE_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/warn.h"
#include "tree/tree.h"

/* Kinds of storage (ff_build_ops.media, a bench's target). */
#define FF_MEDIUM_BLOCK 1u  /* a block device: eMMC, SD, a UBI volume through ubiblock */
#define FF_MEDIUM_NOR 2u    /* raw NOR flash (MTD) */
#define FF_MEDIUM_NAND 4u   /* raw NAND flash (MTD, with UBI) */

/* A format-specific flag: "name" or "name=value" in ff_build_opts.flags. */
struct ff_build_flag {
	const char *name;     /* "no-fragments", "ztailpacking" */
	const char *help;     /* one line */
	/* Non-zero when a bench should try the setting with and without it:
	 * a layout choice that trades size against read cost. */
	int variant;
};

struct ff_build_opts {
	const char *codec;        /* compress/ name; NULL: the format's default */
	const char *codec_opts;   /* "key=value:..." of compress/, or NULL */
	/* SquashFS' block size, EROFS' physical cluster size; 0 the default */
	uint32_t block_size;
	int64_t time;             /* the image's time (SOURCE_DATE_EPOCH); < 0 now */
	const char *const *flags; /* "name" or "name=value", n_flags of them */
	size_t n_flags;
	unsigned jobs;            /* compression threads; 0 one per CPU */
	/* The flash a flash file system is for; 0: the format's default */
	uint32_t erase_block;     /* physical erase block bytes */
	uint32_t page_size;       /* NAND page (the minimum I/O unit) */
	uint64_t flash_size;      /* the partition the file system may grow to */
	ff_warn_fn warn;
	void *warn_ctx;
};

/* What a build wrote. */
struct ff_build_result {
	uint64_t size;    /* the file's bytes, padding included */
	uint64_t used;    /* the bytes the image spans before its padding */
};

struct ff_build_ops {
	const char *block_name;   /* "block size", "pcluster size": for reports */
	/* the block_size values a bench tries by default, 0-terminated */
	const uint32_t *block_sizes;
	uint32_t block_min, block_max;
	/* compress/ codec names the format can store, NULL-terminated */
	const char *const *codecs;
	/* NULL: any setting of those codecs.  Else the one setting of each
	 * the format's builder has (its level is fixed, as JFFS2's zlib at 3),
	 * as "NAME[:key=value...][@LABEL]": a bench runs these instead of
	 * its own settings of the codec, and build refuses (ENOTSUP) any
	 * other option. */
	const char *const *fixed;
	/* FF_MEDIUM_* the images suit; 0: any (a read-only image goes on a
	 * block device, or on flash through mtdblock or UBI's ubiblock) */
	unsigned media;
	/* the flags it takes, ended by a NULL name */
	const struct ff_build_flag *flags;
	/* Writes the image at path (atomically: nothing on failure) and its
	 * exact sizes to *res.  0, or -1 with err naming the option or the
	 * file (ENOTSUP: a codec or codec option the format cannot store). */
	int (*build)(const struct ff_tree *tree, const struct ff_build_opts *o, const char *path,
		     struct ff_build_result *res, struct ff_err *err);
};

void ff_build_opts_init(struct ff_build_opts *o);
/* Does the format list codec (a compress/ name)? */
int ff_build_has_codec(const struct ff_build_ops *b, const char *codec);
/* The flag named name (without "=value"), or NULL. */
const struct ff_build_flag *ff_build_flag_find(const struct ff_build_ops *b, const char *name);
/* Each of o->flags is one b lists: 0, or -1 with err naming the flag and
 * the flags there are. */
int ff_build_check_flags(const struct ff_build_ops *b, const struct ff_build_opts *o,
			 const char *fmt_title, struct ff_err *err);
/* The value of flag name in o ("" when given bare), or NULL when absent. */
const char *ff_build_flag_value(const struct ff_build_opts *o, const char *name);

/* The fixed setting of codec in b->fixed ("NAME[:opts][@LABEL]"), or NULL. */
const char *ff_build_fixed_find(const struct ff_build_ops *b, const char *codec);
/* For a format with fixed settings: o's codec is one of them, with no
 * options or exactly the fixed ones.  0, or -1 with err (ENOTSUP) naming
 * the codec, its one setting and what was given. */
int ff_build_fixed_check(const struct ff_build_ops *b, const struct ff_build_opts *o,
			 const char *fmt_title, struct ff_err *err);

#endif
