/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one growable array: elements of one size, copied in, kept
 * contiguous, grown by doubling.  Replaces the hand-written n/cap pairs.
 * A vector made with FF_VEC_INIT(type) or ff_vec_init is empty and owns
 * nothing.  Growth is checked for overflow of count * size; running out
 * of memory (or such an overflow) is reported as -1 and leaves the vector
 * as it was.  Not thread-safe.
 *
 * Per-object arrays held a million times (a tree node's children, a YAFFS2
 * object's chunks) stay hand-sized: this struct is 32 bytes. */
#ifndef FF_COMMON_VEC_H
#define FF_COMMON_VEC_H

#include <stddef.h>

struct ff_vec {
	void *data;
	size_t len;   /* elements in use */
	size_t cap;   /* elements there is room for */
	size_t elem;  /* bytes per element */
};

#define FF_VEC_INIT(type) { NULL, 0, 0, sizeof(type) }

void ff_vec_init(struct ff_vec *v, size_t elem);
/* Room for at least n elements in all (not n more); 0 or -1. */
int ff_vec_reserve(struct ff_vec *v, size_t n);
/* Appends one element copied from elem (zeroes when elem is NULL). */
int ff_vec_push(struct ff_vec *v, const void *elem);
/* Appends n elements copied from src. */
int ff_vec_append(struct ff_vec *v, const void *src, size_t n);
/* Element i (i < cap: a reserved slot may be filled before len grows). */
void *ff_vec_at(const struct ff_vec *v, size_t i);
/* Frees the elements' memory; the vector is empty again (same size). */
void ff_vec_free(struct ff_vec *v);

/* Typed access: the element size is checked against the type. */
void *ff_vec_at_sized(const struct ff_vec *v, size_t elem, size_t i);
#define FF_VEC_AT(v, type, i) ((type *)ff_vec_at_sized((v), sizeof(type), (i)))
/* The elements as a C array (NULL while nothing was ever reserved). */
#define FF_VEC_DATA(v, type) ((type *)ff_vec_at_sized((v), sizeof(type), 0))

#endif
