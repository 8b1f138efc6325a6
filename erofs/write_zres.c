/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A compressed file's result: see erofs/write_zres.h. */
#include "common/endian.h"
#include "erofs/write_zres.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ew_res_grow(struct zres *r, size_t more)
{
	uint8_t *p;
	size_t cap = r->cap ? r->cap : 65536;

	if (r->len + more <= r->cap)
		return 0;
	while (cap < r->len + more)
		cap *= 2;
	if (!(p = realloc(r->data, cap)))
		return -1;
	r->data = p;
	r->cap = cap;
	return 0;
}

int ew_res_extent(struct zres *r, uint64_t lstart, uint32_t cblks, int plain)
{
	if (r->n == r->xcap) {
		size_t cap = r->xcap ? r->xcap * 2 : 64;
		struct ew_extent *p = realloc(r->x, cap * sizeof(*p));

		if (!p)
			return -1;
		r->x = p;
		r->xcap = cap;
	}
	r->x[r->n++] = (struct ew_extent){ .lstart = lstart, .cblks = cblks, .plain = (uint8_t)plain };
	return 0;
}

int ew_res_inline_tail(struct zres *r, uint64_t pos, const uint8_t *b, size_t len, int plain,
		       struct ff_err *err)
{
	if (!(r->tail = malloc(len)) || ew_res_extent(r, pos, 1, plain))
		return ff_err_set(err, ENOMEM, "inline tail: out of memory");
	memcpy(r->tail, b, len);
	r->tail_len = len;
	return 0;
}

int ew_res_frag_tail(struct zres *r, uint64_t pos, const uint8_t *b, size_t len,
		     struct ff_err *err)
{
	if (ew_res_inline_tail(r, pos, b, len, 0, err))
		return -1;
	r->x[r->n - 1].cblks = 0;
	r->x[r->n - 1].frag = 1;
	r->frag = 1;
	return 0;
}

void ew_res_swap(struct zres *a, struct zres *b)
{
	struct zres t = *a;

	a->data = b->data, a->len = b->len, a->cap = b->cap;
	a->x = b->x, a->n = b->n, a->xcap = b->xcap;
	a->tail = b->tail, a->tail_len = b->tail_len, a->frag = b->frag;
	b->data = t.data, b->len = t.len, b->cap = t.cap;
	b->x = t.x, b->n = t.n, b->xcap = t.xcap;
	b->tail = t.tail, b->tail_len = t.tail_len, b->frag = t.frag;
}

/* The last segment's tail moves over. */
/* A segmented file's sum: its segments' sums summed in order.  Not the
 * CRCs of its bytes, but equal files are cut alike, so equal bytes still
 * give equal sums (and a file of another size another length). */
static void sum_append(struct ew_fsum *acc, const struct ew_fsum *seg)
{
	uint8_t b[8];
	uint64_t len = acc->len + seg->len;

	ff_put_le32(b, seg->c1);
	ff_put_le32(b + 4, seg->c2);
	ew_fsum_add(acc, b, sizeof(b));
	acc->len = len;
}

void ew_res_append(struct zres *acc, struct zres *r)
{
	if (!acc->failed && r->failed) {
		acc->failed = 1;
		acc->err = r->err;
	}
	if (!acc->failed && ew_res_grow(acc, r->len)) {
		acc->failed = 1;
		ff_err_set(&acc->err, ENOMEM, "compressed data: out of memory");
	}
	for (size_t i = 0; !acc->failed && i < r->n; i++) {
		if (ew_res_extent(acc, 0, 0, 0)) {
			acc->failed = 1;
			ff_err_set(&acc->err, ENOMEM, "compressed data: out of memory");
		} else {
			acc->x[acc->n - 1] = r->x[i];
		}
	}
	if (!acc->failed) {
		if (r->len)
			memcpy(acc->data + acc->len, r->data, r->len);
		acc->len += r->len;
		acc->early += r->early;
		acc->tail = r->tail;
		acc->tail_len = r->tail_len;
		acc->frag = r->frag;
		r->tail = NULL;
		sum_append(&acc->sum, &r->sum);
	}
	ew_res_free(r);
}

void ew_res_free(struct zres *r)
{
	free(r->whole);
	free(r->data);
	free(r->x);
	free(r->tail);
	free(r);
}
