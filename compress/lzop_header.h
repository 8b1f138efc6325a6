/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Internal: the lzop file header (after the 9-byte magic). */
#ifndef FF_COMPRESS_LZOP_HEADER_H
#define FF_COMPRESS_LZOP_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

struct ff_cstream;

#define FF_LZOP_HEADER_MAX 320
/* We write headers as lzop 1.04 does and read what it can read. */
#define FF_LZOP_VERSION 0x1040u
#define FF_LZOP_NEEDED 0x0940u

struct ff_lzop_header {
	uint16_t version;
	uint16_t lib_version;
	uint16_t version_needed;
	uint8_t method;
	uint8_t level;
	uint32_t flags;
	uint32_t mode;
	uint64_t mtime;
	uint8_t name_len;
	char name[256];
};

/* Header bytes (with their checksum) for h; returns the length. */
size_t ff_lzop_header_encode(const struct ff_lzop_header *h, uint8_t *buf);
/* Read and check a header (and skip an extra field) from a stream whose
 * magic has been consumed. */
int ff_lzop_header_read(struct ff_cstream *s, struct ff_lzop_header *h, struct ff_err *err);

#endif
