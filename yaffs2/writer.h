/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Building a YAFFS2 image from a finished tree/tree.h tree.
 *
 * Objects get ids from 257 up in tree order (1 is the root, 2 lost+found
 * when the source has one at the top, 3 and 4 stay reserved).  Every
 * object gets a header chunk (chunk 0, xattrs after the header), files
 * then their data chunks 1..n; all-zero chunks but the last are left
 * unwritten (holes read back as zeros).  With root_header, the root's
 * header comes first and again last, carrying end_record.h's counts.  Blocks fill in order with sequence numbers from
 * 0x1000, and the image ends on a whole erase block of erased (0xff)
 * pages.  Output is streamed one erase block at a time through `sink`. */
#ifndef FF_YAFFS2_WRITER_H
#define FF_YAFFS2_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "tree/tree.h"
#include "yaffs2/oob_layout.h"

typedef int (*ff_y2_sink_fn)(void *ctx, const void *buf, size_t len, struct ff_err *err);

struct ff_y2_write_opts {
	struct ff_y2_layout layout;
	int big_endian;
	int classic_tags;   /* mkyaffs2image-style headers (unyaffs) */
	int data_ecc;       /* fill the OOB ECC bytes (Hamming layouts only) */
	int root_header;    /* write a header for the root (its mode/owner/time) */
	ff_y2_sink_fn sink;
	void *sink_ctx;
	void (*progress)(void *ctx, uint64_t objects_done, uint64_t objects_total);
	void *progress_ctx;
	/* ff_y2_write_file: an image of more erase blocks is refused (the
	 * chip's size; 0 = no limit), and nothing is written. */
	uint64_t max_blocks;
};

struct ff_y2_write_stats {
	uint64_t objects;
	uint64_t header_chunks, data_chunks, hole_chunks;
	uint64_t blocks;
	uint64_t bytes;
};

int ff_y2_write(const struct ff_tree *tree, const struct ff_y2_write_opts *opts,
		struct ff_y2_write_stats *stats, struct ff_err *err);

/* ff_y2_write into IMAGE through a temporary beside it, renamed at the end
 * (common/outfile.h: on failure nothing is left), compressed into the
 * stream container `codec` ("gzip", "lzo", "xz", "zstd"; NULL = none).
 * Sets wo->sink and wo->sink_ctx. */
int ff_y2_write_file(const struct ff_tree *tree, struct ff_y2_write_opts *wo, const char *image,
		     const char *codec, struct ff_y2_write_stats *stats, struct ff_err *err);

/* Largest file the kernel's driver can address with this chunk size. */
uint64_t ff_y2_max_file_size(uint32_t chunk_bytes);

#endif
