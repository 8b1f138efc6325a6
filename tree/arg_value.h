/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Option values shared by the mkfs programs and the -action language:
 * counts, sizes, times and owners.  A bad value gives -1 and an ff_err
 * naming the option and the value, e.g. "--force-uid: 'nobody2' is not a
 * number or a known user"; the main prints it and exits 2.  Values only:
 * the getopt tables and argv walks are mkfs/'s (source_args.c). */
#ifndef FF_TREE_ARG_VALUE_H
#define FF_TREE_ARG_VALUE_H

#include <stdint.h>

#include "common/error.h"

/* A decimal number in min..max. */
int ff_arg_u32(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
	       struct ff_err *err);
/* A number of bytes in the one size syntax (common/size.h: 131072,
 * 0x20000, 128K, 128KiB), in min..max. */
int ff_arg_size(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		struct ff_err *err);
/* The same, also a power of two (block and page sizes). */
int ff_arg_pow2(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out,
		struct ff_err *err);
/* A byte offset in the same syntax, as mksquashfs -offset takes it; at most
 * 2^62. */
int ff_arg_offset(const char *opt, const char *s, uint64_t *out, struct ff_err *err);
/* Seconds since 1970, 0..4294967295 (what both image formats can hold). */
int ff_arg_time(const char *opt, const char *s, int64_t *out, struct ff_err *err);
/* A uid or gid: a number, or a user or group name from the host's
 * passwd/group databases. */
int ff_arg_owner(const char *opt, const char *s, int is_group, int64_t *out,
		 struct ff_err *err);

/* Plain numbers (xattr_value.c), as spec and pseudo files and --root-mode
 * write them: -1 when not a number in range, no message. */
int ff_parse_u32(const char *s, int base, uint32_t max, uint32_t *out);
int ff_parse_i64(const char *s, int64_t *out);

#endif
