/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The shared compression backends.  Every format and the bench compress and
 * decompress only through this API.
 *
 *   struct ff_comp      a codec plus its options (immutable once built; share
 *                       it between threads)
 *   struct ff_comp_ctx  per-thread working state, reused across calls so the
 *                       hot path does not allocate
 *
 * Each codec lives in one file (gzip.c, lzo.c, xz.c, lzma.c, lz4.c, zstd.c)
 * behind struct ff_codec (codec.h); this header is all a user needs. */
#ifndef FF_COMPRESS_COMPRESS_H
#define FF_COMPRESS_COMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/info.h"

/* SquashFS compressor ids (superblock field). */
enum ff_comp_id {
	FF_COMP_GZIP = 1,
	FF_COMP_LZMA = 2,
	FF_COMP_LZO = 3,
	FF_COMP_XZ = 4,
	FF_COMP_LZ4 = 5,
	FF_COMP_ZSTD = 6,
};

/* ff_comp_compress result when the output would not be smaller than the
 * input: the caller stores the block uncompressed. */
#define FF_COMP_NOSHRINK 0

struct ff_comp;
struct ff_comp_ctx;

/* 0 when built with `make LZO=0` (no liblzo2): then ff_comp_new("lzo"),
 * the lzop stream and the formats' LZO nodes fail with ff_comp_no_lzo's
 * error, which names LZO, `what` and the build. */
int ff_comp_has_lzo(void);
int ff_comp_no_lzo(struct ff_err *err, const char *what);

/* Names in the order `--help` lists them: gzip lzo xz lzma lz4 zstd. */
const char *const *ff_comp_names(void);

/* A codec with default options for the given block size (which bounds e.g.
 * the xz dictionary).  NULL with err set for an unknown name. */
struct ff_comp *ff_comp_new(const char *name, uint32_t block_size, struct ff_err *err);
/* The codec a superblock's compressor id names, with the options an image
 * that has no options block implies (for gzip: deflate level 9 by an
 * unrecorded encoder, compressing again with zlib).  Readers start here and
 * then decode the options block if the image has one. */
struct ff_comp *ff_comp_new_id(int id, uint32_t block_size, struct ff_err *err);
void ff_comp_free(struct ff_comp *comp);

/* Set one option from "key=value" text (e.g. "level=9", "bcj=x86,arm",
 * "hc" for a flag).  Errors name the key and the bad value. */
int ff_comp_set_option(struct ff_comp *comp, const char *key, const char *value,
		       struct ff_err *err);
/* The same from one "key=value" string. */
int ff_comp_set_option_str(struct ff_comp *comp, const char *kv, struct ff_err *err);
/* One line per option for --help: "level=1..9 (default 9)". */
const char *ff_comp_option_help(const char *name);

const char *ff_comp_name(const struct ff_comp *comp);
int ff_comp_id(const struct ff_comp *comp);
/* The options as typed members (common/info.h: integers, booleans, names,
 * lists of names), in a fixed order, for JSON; with stored only what an
 * options block holds.  The text below is made from the same members. */
void ff_comp_options(const struct ff_comp *comp, int stored, ff_info_fn fn, void *ctx);
/* Canonical option text, e.g. "libdeflate,level=9" or
 * "zlib,level=9,window=15,strategy=default", for reports. */
void ff_comp_describe(const struct ff_comp *comp, char *buf, size_t cap);
/* Only the options an options block stores (xz: the dictionary and BCJ
 * filters, not the preset level, which only steered the encoder). */
void ff_comp_describe_stored(const struct ff_comp *comp, char *buf, size_t cap);
/* Non-zero when the Linux kernel cannot mount images using this codec
 * (legacy lzma). */
int ff_comp_kernel_unsupported(const struct ff_comp *comp);

/* SquashFS compressor-options block payload (without the 2-byte metadata
 * header).  Returns its length, 0 when the options are the defaults and no
 * block is written, or -1 when cap is too small. */
ssize_t ff_comp_options_encode(const struct ff_comp *comp, uint8_t *buf, size_t cap);
/* For a reader: the same, but a block the codec cannot read (OpenWrt's
 * 12-byte xz block, whose first word is no dictionary size) does not stop
 * the read, as no codec needs its options to decode: the defaults stand,
 * the block is shown as stored with the reason (ff_comp_options with
 * stored), and 1 is returned with a note for one warning. */
int ff_comp_options_read(struct ff_comp *comp, const uint8_t *buf, size_t len,
			 struct ff_err *note);
/* The reason the options block read by ff_comp_options_read was not
 * understood, or NULL: a writer must not carry such options on (append). */
const char *ff_comp_options_unread(const struct ff_comp *comp);
/* Read a compressor-options block found in an image (strict). */
int ff_comp_options_decode(struct ff_comp *comp, const uint8_t *buf, size_t len,
			   struct ff_err *err);

struct ff_comp_ctx *ff_comp_ctx_new(const struct ff_comp *comp, struct ff_err *err);
void ff_comp_ctx_free(struct ff_comp_ctx *ctx);

/* Returns the compressed length (< n), FF_COMP_NOSHRINK, or -1 with err. */
ssize_t ff_comp_compress(struct ff_comp_ctx *ctx, const void *src, size_t n, void *dst,
			 size_t cap, struct ff_err *err);
/* Returns the decompressed length.  Never writes past cap; corrupt,
 * truncated, or too-large output is -1 with err. */
ssize_t ff_comp_decompress(struct ff_comp_ctx *ctx, const void *src, size_t n, void *dst,
			   size_t cap, struct ff_err *err);

/* ---- Stream containers (.gz .lzo .xz .zst) for whole-image compression ---- */

struct ff_cstream;

/* Writer: compresses everything written into fd with the named codec in its
 * standard file format (gzip, lzop, xz, zstd).  level < 0 = codec default. */
struct ff_cstream *ff_cstream_new_writer(int fd, const char *name, int level,
					 struct ff_err *err);
/* Reader: detects the container from its magic.  Returns NULL with
 * err->code == 0 when fd holds no known container (caller reads it raw). */
struct ff_cstream *ff_cstream_new_reader(int fd, struct ff_err *err);
ssize_t ff_cstream_write(struct ff_cstream *s, const void *buf, size_t len, struct ff_err *err);
ssize_t ff_cstream_read(struct ff_cstream *s, void *buf, size_t len, struct ff_err *err);
/* Flushes a writer's trailer.  Returns 0 or -1 with err; always frees s. */
int ff_cstream_close(struct ff_cstream *s, struct ff_err *err);
/* Container name for a file's magic ("gzip", "xz", ...), or NULL. */
const char *ff_cstream_detect(const uint8_t *magic, size_t len);

#endif
