/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one problem reporter: what a check or an open finds wrong in an
 * image, as printf-style text given to an ff_problem_fn (common/fs.h).
 *
 * A sink passes each problem on at once and counts it (a check's walk).
 * A kept list stores what an open finds, for check, open_problems and
 * info to read later: every problem is counted, the first `cap` are kept
 * as text, each with the caller's flag (romfs marks damage with it).
 * Not thread-safe: a caller that reports from several threads locks. */
#ifndef FF_COMMON_PROBLEMS_H
#define FF_COMMON_PROBLEMS_H

#include <stddef.h>

#include "common/fs.h"
#include "common/vec.h"

/* A message's bytes, NUL included; a longer one is cut. */
#define FF_PROBLEM_MSG_MAX 1024

struct ff_problem_sink {
	ff_problem_fn fn;      /* NULL: problems are only counted */
	void *ctx;
	long count;
};

void ff_problemf(struct ff_problem_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

struct ff_problem {
	char *msg;
	int flag;              /* as given to ff_problem_add_flag, else 0 */
};

/* All zero is an empty list without a cap. */
struct ff_problem_list {
	struct ff_vec kept;    /* struct ff_problem, in the order added */
	size_t cap;            /* most kept (0: no limit); the rest are counted */
	size_t total;          /* every problem added, kept or not */
	size_t flagged;        /* those of total added with a non-zero flag */
};

void ff_problem_list_init(struct ff_problem_list *l, size_t cap);

/* Counts the problem and keeps its text while fewer than cap are kept.
 * 0, or -1 when out of memory (counted, not kept). */
int ff_problem_add(struct ff_problem_list *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ff_problem_add_flag(struct ff_problem_list *l, int flag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

size_t ff_problem_kept(const struct ff_problem_list *l);
const struct ff_problem *ff_problem_at(const struct ff_problem_list *l, size_t i);

/* Each kept message to fn in order, then "... and N more problems" when
 * some were not kept; returns the total. */
long ff_problem_replay(const struct ff_problem_list *l, ff_problem_fn fn, void *ctx);

/* Frees the messages; the list is empty again, with the same cap. */
void ff_problem_list_free(struct ff_problem_list *l);

#endif
