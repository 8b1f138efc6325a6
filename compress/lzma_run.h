/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Internal: drive an already-initialised liblzma stream over one block.
 * Shared by xz.c (the .xz container) and lzma.c (legacy LZMA-alone). */
#ifndef FF_COMPRESS_LZMA_RUN_H
#define FF_COMPRESS_LZMA_RUN_H

#include <lzma.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/info.h"

/* Decoders never get more than this much memory for one block: enough for
 * any dictionary a SquashFS block can use, not enough for a hostile header
 * to exhaust memory. */
#define FF_LZMA_BLOCK_MEMLIMIT (256u << 20)

/* Encode src into dst (cap bytes): length, FF_CODEC_NOFIT, or -1 with err. */
ssize_t ff_lzma_encode_run(lzma_stream *strm, const char *codec, const uint8_t *src, size_t n,
			   uint8_t *dst, size_t cap, struct ff_err *err);
/* Decode src into dst: length or -1 with err naming codec and problem. */
ssize_t ff_lzma_decode_run(lzma_stream *strm, const char *codec, const uint8_t *src, size_t n,
			   uint8_t *dst, size_t cap, struct ff_err *err);
/* The literal/position bits of lzma_options_lzma (OpenWrt's mksquashfs
 * -Xlc -Xlp -Xpb), each -1 while the preset's value stands. */
struct ff_lzma_bits {
	int lc, lp, pb;
};
void ff_lzma_bits_init(struct ff_lzma_bits *b);
/* "lc", "lp" or "pb" = value: 0 set, -1 bad value, 1 not one of these keys. */
int ff_lzma_bits_set(struct ff_lzma_bits *b, const char *codec, const char *key,
		     const char *value, struct ff_err *err);
/* Puts the given bits into o; lc + lp over 4 is refused (liblzma's limit). */
int ff_lzma_bits_apply(const struct ff_lzma_bits *b, const char *codec, lzma_options_lzma *o,
		       struct ff_err *err);
/* The given bits as typed members lc, lp, pb (none while the preset's stand). */
void ff_lzma_bits_options(const struct ff_lzma_bits *b, ff_info_fn fn, void *ctx);
/* Text for a liblzma return code. */
const char *ff_lzma_strerror(lzma_ret ret);

#endif
