/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one size syntax every option that takes a byte count accepts:
 *
 *   4096      decimal; leading zeros are decimal too (010 is ten, never octal)
 *   0x1000    hexadecimal after 0x or 0X
 *   128K 1M 2G 1T   a suffix multiplies by 2^10, 2^20, 2^30, 2^40; it is
 *             case-insensitive (1m = 1M) and may follow a hex number
 *   128KiB 1MiB     the same suffix spelled as mtd-utils and ubinize do
 *
 * Nothing else: no sign, no spaces, no bare "B" or "KB" (1000 or 1024?), no
 * fractions.  A value that does not fit in 64 bits is rejected.  Every
 * program option that takes a byte count goes through ff_parse_size. */
#ifndef FF_COMMON_SIZE_H
#define FF_COMMON_SIZE_H

#include <stdint.h>

/* What the syntax is, for messages: "is not a size (...)". */
#define FF_SIZE_SYNTAX "4096, 0x1000, or with a suffix K, M, G, T or KiB, MiB, GiB, TiB"

/* 0 and *out set, or -1 (*out unchanged). */
int ff_parse_size(const char *s, uint64_t *out);
/* A plain count (ids, threads, seconds): the same without a suffix. */
int ff_parse_uint(const char *s, uint64_t *out);

#endif
