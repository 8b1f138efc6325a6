/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: the codecs, one block at a time.
 *
 * The codecs are the ones SquashFS knows: "gzip", "lzo", "lzma", "xz",
 * "lz4", "zstd", with the options mksquashfs accepts ("level=9",
 * "window=15", "strategy=...", "hc", "bcj=x86", "algorithm=lzo1x_999"...;
 * ff_compressor_create reports the ones a codec does not know).  A block
 * compressed here is what a SquashFS image stores: a zlib stream for gzip,
 * an xz stream for xz, a bare LZ4 block for lz4, and so on.
 *
 * A compressor holds its codec's working memory, reused from call to
 * call: use one per thread (creating one is cheap next to a block). */
#ifndef FLASHFS_CODEC_H
#define FLASHFS_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <flashfs/error.h>

struct ff_compressor;

/* The codec names this build supports, NULL-terminated; static storage. */
FF_API const char *const *ff_compressor_names(void);

/* name: a codec above.  block_size: the largest block it will be given
 * (SquashFS: 4 KiB .. 1 MiB, a power of two; xz and lzma size their
 * dictionary from it).  options: NULL, or a comma-separated list
 * "key=value,key". */
FF_API int ff_compressor_create(const char *name, uint32_t block_size, const char *options,
				struct ff_compressor **comp, struct ff_error *err);
FF_API void ff_compressor_destroy(struct ff_compressor *comp);

FF_API const char *ff_compressor_name(const struct ff_compressor *comp);

/* Compresses src[0..len) into dst[0..cap); returns the compressed length,
 * 0 when the output would not be smaller than the input (SquashFS then
 * stores the block as it is; a dst of len bytes is therefore always
 * enough), or -1 with err. */
FF_API ssize_t ff_compressor_compress(struct ff_compressor *comp, const void *src, size_t len,
				      void *dst, size_t cap, struct ff_error *err);
/* Decompresses one whole block; returns its decoded length.  Never writes
 * past cap: corrupt or truncated input, or output longer than cap, is -1
 * with err. */
FF_API ssize_t ff_compressor_decompress(struct ff_compressor *comp, const void *src,
					size_t len, void *dst, size_t cap,
					struct ff_error *err);

#endif
