/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The EROFS writer's codecs (compressor.c): one context per worker. */
#ifndef FF_EROFS_COMPRESSOR_H
#define FF_EROFS_COMPRESSOR_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "erofs/writer.h"

struct ew_codec;

/* dict: the largest input of one cluster (LZMA dictionary, zstd window);
 * cap: the largest output asked for. */
struct ew_codec *ew_codec_new(enum ff_erofs_codec kind, int level, uint32_t dict, uint32_t cap,
			      struct ff_err *err);
void ew_codec_free(struct ew_codec *c);
/* Before a file's first extent: forgets what the last file's extents
 * taught the search for a fit (the image must not depend on which worker
 * compressed which file). */
void ew_codec_new_file(struct ew_codec *c);
/* Compresses the longest prefix of the *n bytes at in whose stream fits in
 * cap bytes at out; *n becomes that prefix's length.  Returns the stream's
 * size, 0 when nothing useful fits (*n then the length found not to
 * shrink at all, which the caller stores as is, or 0), -1 on a codec
 * failure.  Deflate and zstd come within cap / 512 of cap rather than
 * to the longest prefix. */
long ew_codec_fit(struct ew_codec *c, const uint8_t *in, size_t *n, uint8_t *out, size_t cap);
unsigned ew_codec_alg(enum ff_erofs_codec kind);
int ew_codec_default_level(enum ff_erofs_codec kind);
unsigned ew_codec_log2(uint32_t v);

#endif
