/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One span of a compressed file (all of it, a segment, or a segment of
 * the packed inode) cut into extents on one worker (write_zspan.c), and
 * the workers' contexts; write_compress.c queues the spans and places the
 * results. */
#ifndef FF_EROFS_WRITE_ZSPAN_H
#define FF_EROFS_WRITE_ZSPAN_H

#include <stdint.h>

#include "common/error.h"
#include "common/vec.h"
#include "erofs/write_priv.h"
#include "erofs/write_zres.h"

/* The input of one job: [start, end) of a file of size bytes (the packed
 * inode's segments before the last: size unknown, UINT64_MAX). */
struct zspan {
	uint64_t start, end, size;
	int packed;                /* the packed inode's bytes (fragments) */
};

struct zctx {
	struct ew *w;
	struct ew_codec **codecs;  /* one per worker, and the submitter's */
	uint8_t **outs;            /* one pcluster of scratch per worker */
	/* Per worker too, made once: an input window (ext_cap) and the tail
	 * trim's two pclusters.  Made per file they were an mmap and munmap
	 * each (glibc above its threshold, ASan always: 340 CPU s of CI's
	 * ASan pass in the erofs_build tests, 90 plain). */
	uint8_t **wins;
	uint8_t **tmps;
	unsigned self;             /* the submitter's codec and scratch */
};

/* The workers' contexts (threads of them, and the submitter's). */
int ew_zctx_init(struct zctx *z, struct ew *w, unsigned threads, struct ff_err *err);
void ew_zctx_free(struct zctx *z, unsigned threads);

/* Segments: the fixed length large files are cut at, how many e has, and
 * segment seg of e as a span. */
uint64_t ew_file_seg_size(const struct ew *w);
uint32_t ew_nsegs(const struct ew *w, const struct ew_ino *e);
struct zspan ew_file_span(const struct ew *w, const struct ew_ino *e, uint32_t seg);

/* Span sp of e compressed on worker into r; whole (-E dedupe): the file's
 * bytes from its first pass, and dm the table's matches in them. */
int ew_zspan_compress(struct zctx *z, unsigned worker, const struct ew_ino *e,
		      const struct zspan *sp, struct zres *r, const uint8_t *whole,
		      const struct ff_vec *dm, struct ff_err *err);

#endif
