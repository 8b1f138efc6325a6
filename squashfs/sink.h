/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one place the writer's bytes go (sink_writer.c): the image file,
 * or only a byte count in a dry run, so both follow the same path. */
#ifndef FF_SQUASHFS_SINK_H
#define FF_SQUASHFS_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/outfile.h"

struct sqfs_sink {
	struct ff_outfile *of; /* NULL: count bytes only */
	uint64_t pos;
};

int sqfs_sink_write(struct sqfs_sink *s, const void *buf, size_t len, struct ff_err *err);

#endif
