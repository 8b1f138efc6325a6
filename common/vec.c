/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/vec.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first allocation: small arrays are the common case. */
#define FIRST_CAP 16

void ff_vec_init(struct ff_vec *v, size_t elem)
{
	*v = (struct ff_vec){ .elem = elem };
}

int ff_vec_reserve(struct ff_vec *v, size_t n)
{
	size_t cap = v->cap ? v->cap : FIRST_CAP;
	void *p;

	assert(v->elem);
	if (n <= v->cap)
		return 0;
	while (cap < n)
		cap = cap > SIZE_MAX / 2 ? n : cap * 2;
	if (cap > SIZE_MAX / v->elem) {
		errno = ENOMEM;
		return -1;
	}
	p = realloc(v->data, cap * v->elem);
	if (!p)
		return -1;
	v->data = p;
	v->cap = cap;
	return 0;
}

int ff_vec_append(struct ff_vec *v, const void *src, size_t n)
{
	if (n > SIZE_MAX - v->len) {
		errno = ENOMEM;
		return -1;
	}
	if (ff_vec_reserve(v, v->len + n) < 0)
		return -1;
	if (n)
		memcpy((char *)v->data + v->len * v->elem, src, n * v->elem);
	v->len += n;
	return 0;
}

int ff_vec_push(struct ff_vec *v, const void *elem)
{
	if (elem)
		return ff_vec_append(v, elem, 1);
	if (v->len == SIZE_MAX || ff_vec_reserve(v, v->len + 1) < 0)
		return -1;
	memset((char *)v->data + v->len * v->elem, 0, v->elem);
	v->len++;
	return 0;
}

void *ff_vec_at(const struct ff_vec *v, size_t i)
{
	assert(i < v->cap || (i == 0 && !v->cap));
	return v->data ? (char *)v->data + i * v->elem : NULL;
}

void *ff_vec_at_sized(const struct ff_vec *v, size_t elem, size_t i)
{
	assert(elem == v->elem);
	(void)elem;
	return ff_vec_at(v, i);
}

void ff_vec_free(struct ff_vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}
