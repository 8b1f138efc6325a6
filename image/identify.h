/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Asking the registry's probes what is at an offset of a byte source. */
#ifndef FF_IMAGE_IDENTIFY_H
#define FF_IMAGE_IDENTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "common/format.h"

struct ff_found {
	const struct ff_format *fmt; /* NULL: nothing */
	struct ff_probe probe;
	/* When nothing was found: the first costly probe's reason for no. */
	const struct ff_format *why_fmt;
	char why[256];
};

/* The surest format at off of src: 0, or -EMEDIUMTYPE when no probe
 * answered, or another negative errno when src could not be read. */
int ff_identify(struct ff_bsrc *src, uint64_t off, const struct ff_open_opts *opts,
		struct ff_found *found);

/* One format's probe at off, buf holding len bytes from there (cut to the
 * format's probe_len); res is cleared first.  Returns the confidence. */
int ff_probe_one(const struct ff_format *f, struct ff_bsrc *src, uint64_t off,
		 const uint8_t *buf, size_t len, const struct ff_open_opts *opts,
		 struct ff_probe *res);

/* "a JFFS2 image (big-endian, erase block 64 KiB?)" */
void ff_found_describe(const struct ff_found *f, char *buf, size_t cap);

#endif
