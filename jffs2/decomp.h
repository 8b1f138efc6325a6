/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Decompressing the data of one inode node by its compr id.  zlib, LZO
 * and LZMA go through their libraries; rtime and rubin (no library has
 * them) are decoded by rtime.c and rubin.c. */
#ifndef FF_JFFS2_DECOMP_H
#define FF_JFFS2_DECOMP_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* "zlib", "rtime" ... or "unknown". */
const char *j2_compr_name(unsigned id);

/* Decodes src (n bytes) into exactly out_len bytes at out; 0, or -1 with
 * err naming the method and what went wrong. */
int j2_decompress(unsigned id, const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		  struct ff_err *err);

/* The two methods no library has (formats from fs/jffs2/compr_rtime.c and
 * compr_rubin.c); 0, or -1 with err. */
int j2_rtime_decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		    struct ff_err *err);
/* The fixed-probability rubin of MIPS (BIT_DIVIDER_MIPS, bits_mips) when
 * dynamic is 0; the dynamic one, whose eight probabilities lead the
 * stream, when 1. */
int j2_rubin_decode(int dynamic, const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		    struct ff_err *err);

#endif
