/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Internal: one struct ff_codec per SquashFS compressor, in the spirit of the
 * kernel's struct squashfs_decompressor.  Only compress/ includes this.
 *
 * Each codec keeps its options in a private struct of opts_size bytes that
 * compress.c allocates and zeroes; every hook receives it as `void *`. */
#ifndef FF_COMPRESS_CODEC_H
#define FF_COMPRESS_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/info.h"

/* Returned by a codec's compress hook when the result does not fit in the
 * capacity it was given (compress.c turns that into FF_COMP_NOSHRINK). */
#define FF_CODEC_NOFIT 0

struct ff_codec {
	const char *name;
	int id;
	const char *help;
	int kernel_unsupported;
	size_t opts_size;

	void (*defaults)(void *opts, uint32_t block_size);
	/* Optional: what an image naming this codec without an options block
	 * means, where that differs from what we write by default (gzip: the
	 * encoder is not recorded). */
	void (*image_defaults)(void *opts, uint32_t block_size);
	/* value is NULL for a bare flag ("hc"). */
	int (*set_option)(void *opts, uint32_t block_size, const char *key, const char *value,
			  struct ff_err *err);
	/* The options as typed members, in a fixed order; with stored only
	 * what an options block holds (a reader knows no more about an
	 * image).  ff_comp_describe turns them into text (compress.c). */
	void (*options)(const void *opts, int stored, ff_info_fn fn, void *ctx);
	/* Payload length, 0 for "defaults, no block", -1 when cap is short. */
	ssize_t (*options_encode)(const void *opts, uint32_t block_size, uint8_t *buf,
				  size_t cap);
	int (*options_decode)(void *opts, uint32_t block_size, const uint8_t *buf, size_t len,
			      struct ff_err *err);

	void *(*ctx_new)(const void *opts, uint32_t block_size, struct ff_err *err);
	void (*ctx_free)(void *state);
	/* cap is already limited to n - 1: a result that does not fit is
	 * FF_CODEC_NOFIT, a real failure -1 with err. */
	ssize_t (*compress)(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			    struct ff_err *err);
	ssize_t (*decompress)(void *state, const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
			      struct ff_err *err);
};

extern const struct ff_codec ff_codec_gzip;
extern const struct ff_codec ff_codec_lzo;
extern const struct ff_codec ff_codec_xz;
extern const struct ff_codec ff_codec_lzma;
extern const struct ff_codec ff_codec_lz4;
extern const struct ff_codec ff_codec_zstd;

/* ---- helpers shared by the codecs (codec_util.c) ---- */

/* Grow *buf to at least need bytes (kept across calls: no per-block
 * allocation once the largest block has been seen). */
int ff_codec_reserve(uint8_t **buf, size_t *cap, size_t need, const char *codec,
		     struct ff_err *err);

/* One way of compressing a block (a gzip strategy, an xz BCJ filter):
 * returns the length, FF_CODEC_NOFIT-style 0 when it did not fit cap, or -1. */
typedef ssize_t (*ff_codec_variant_fn)(void *state, int variant, const uint8_t *src, size_t n,
				       uint8_t *dst, size_t cap, struct ff_err *err);
/* Try every variant whose bit is set in mask and keep the smallest result
 * in dst.  dst already holds `best` bytes (0 = nothing yet); each later try
 * only has to beat it, so cap shrinks.  scratch must hold cap bytes. */
ssize_t ff_codec_smallest(void *state, ff_codec_variant_fn run, uint32_t mask, int count,
			  ssize_t best, uint8_t *scratch, const uint8_t *src, size_t n, uint8_t *dst,
			  size_t cap, struct ff_err *err);

/* Integer in [lo, hi]; errors read "CODEC: KEY=VALUE: ...". */
int ff_opt_int(const char *codec, const char *key, const char *value, long lo, long hi,
	       long *out, struct ff_err *err);
/* Flag: NULL/""/1/yes/true/on or 0/no/false/off. */
int ff_opt_bool(const char *codec, const char *key, const char *value, int *out,
		struct ff_err *err);
/* Comma-separated list of names from table (NULL-terminated); sets bit i for
 * names[i] (aliases[i] may be NULL or a second spelling). */
int ff_opt_list(const char *codec, const char *key, const char *value,
		const char *const *names, const char *const *aliases, uint32_t *mask,
		struct ff_err *err);
/* Byte size with optional K/M suffix, or a percentage of block_size. */
int ff_opt_size(const char *codec, const char *key, const char *value, uint32_t block_size,
		uint32_t *out, struct ff_err *err);
/* Does key match one of the spellings (NULL-terminated)? */
int ff_opt_is(const char *key, const char *const *spellings);
int ff_opt_unknown(const char *codec, const char *key, struct ff_err *err);

#endif
