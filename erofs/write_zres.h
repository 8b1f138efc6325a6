/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One compressed file's result as a worker hands it to the main thread
 * (erofs/write_compress.c): its pclusters back to back, its extents, and
 * the tail that goes inline (ztailpacking) or into the packed inode
 * (fragments).  A large file's segments are each a result, appended in
 * order once its last is in. */
#ifndef FF_EROFS_WRITE_ZRES_H
#define FF_EROFS_WRITE_ZRES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "erofs/write_priv.h"

struct zres {
	uint8_t *data;             /* the pclusters, back to back */
	size_t len, cap;
	uint64_t early;            /* bytes of pclusters before data, already
				      written at the output's end (a large
				      file's segments but the last) */
	struct ew_extent *x;
	size_t n, xcap;
	uint8_t *tail;             /* ztailpacking: the inline pcluster;
				      fragments: the last extent's input */
	size_t tail_len;
	int frag;                  /* tail is a fragment */
	struct ew_fsum sum;        /* of the file's bytes */
	uint8_t *whole;            /* -E dedupe: all of the file's bytes */
	int failed;
	struct ff_err err;
};

/* Room for more bytes of pclusters: 0, or -1 out of memory. */
int ew_res_grow(struct zres *r, size_t more);
/* One more extent: 0, or -1 out of memory. */
int ew_res_extent(struct zres *r, uint64_t lstart, uint32_t cblks, int plain);
/* The last extent is the tail: len bytes of b, compressed or (plain)
 * stored; 0, or -1 with err. */
int ew_res_inline_tail(struct zres *r, uint64_t pos, const uint8_t *b, size_t len, int plain,
		       struct ff_err *err);
/* fragments: the last extent's input, for the packed inode. */
int ew_res_frag_tail(struct zres *r, uint64_t pos, const uint8_t *b, size_t len,
		     struct ff_err *err);
/* Swaps the extents, pclusters and tail of a and b (not the bytes or sums). */
void ew_res_swap(struct zres *a, struct zres *b);
/* Appends segment r to acc (a failure or no memory marks acc failed) and
 * frees r. */
void ew_res_append(struct zres *acc, struct zres *r);
/* write_pshare.c: pclusters of r equal to ones already written become
 * references to those (e then takes full indexes; r's data shrinks), and
 * after e is written, its own go into the table (data: r's pclusters). */
int ew_pshare_match(struct ew *w, struct ew_ino *e, struct zres *r, struct ff_err *err);
int ew_pshare_add(struct ew *w, const struct ew_ino *e, const struct zres *r,
		  const uint8_t *data, struct ff_err *err);
/* Frees r and all it holds. */
void ew_res_free(struct zres *r);

#endif
