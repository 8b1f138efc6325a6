/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/problems.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ff_problemf(struct ff_problem_sink *s, const char *fmt, ...)
{
	char msg[FF_PROBLEM_MSG_MAX];
	va_list ap;

	s->count++;
	if (!s->fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->fn(s->ctx, msg);
}

void ff_problem_list_init(struct ff_problem_list *l, size_t cap)
{
	*l = (struct ff_problem_list){ .cap = cap };
	ff_vec_init(&l->kept, sizeof(struct ff_problem));
}

static int vadd(struct ff_problem_list *l, int flag, const char *fmt, va_list ap)
{
	char buf[FF_PROBLEM_MSG_MAX];
	struct ff_problem p = { NULL, flag };

	l->total++;
	if (flag)
		l->flagged++;
	if (l->cap && l->kept.len >= l->cap)
		return 0;
	/* A zeroed list (a calloc'd reader) gets its element size here. */
	if (!l->kept.elem)
		ff_vec_init(&l->kept, sizeof(struct ff_problem));
	vsnprintf(buf, sizeof(buf), fmt, ap);
	p.msg = strdup(buf);
	if (!p.msg || ff_vec_push(&l->kept, &p) < 0) {
		free(p.msg);
		return -1;
	}
	return 0;
}

int ff_problem_add(struct ff_problem_list *l, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vadd(l, 0, fmt, ap);
	va_end(ap);
	return ret;
}

int ff_problem_add_flag(struct ff_problem_list *l, int flag, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vadd(l, flag, fmt, ap);
	va_end(ap);
	return ret;
}

size_t ff_problem_kept(const struct ff_problem_list *l)
{
	return l->kept.len;
}

const struct ff_problem *ff_problem_at(const struct ff_problem_list *l, size_t i)
{
	return i < l->kept.len ? FF_VEC_AT(&l->kept, struct ff_problem, i) : NULL;
}

long ff_problem_replay(const struct ff_problem_list *l, ff_problem_fn fn, void *ctx)
{
	char more[64];

	for (size_t i = 0; i < l->kept.len; i++)
		fn(ctx, ff_problem_at(l, i)->msg);
	if (l->total > l->kept.len) {
		snprintf(more, sizeof(more), "... and %zu more problems", l->total - l->kept.len);
		fn(ctx, more);
	}
	return (long)l->total;
}

void ff_problem_list_free(struct ff_problem_list *l)
{
	for (size_t i = 0; i < l->kept.len; i++)
		free(ff_problem_at(l, i)->msg);
	ff_vec_free(&l->kept);
	l->total = l->flagged = 0;
}
