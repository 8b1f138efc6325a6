/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Internal to diff/diff*.c: the state of one comparison and the helpers
 * that add change records to the entry being compared. */
#ifndef FF_DIFF_DIFF_WALK_H
#define FF_DIFF_DIFF_WALK_H

#include "common/hmap.h"
#include "diff/diff.h"

#define DIFF_CHUNK (256u << 10)

struct diff_side {
	struct ff_fs *fs;
	const char *name;
	struct ff_hmap links; /* handle -> first path met (heap copy) */
};

struct diff_walk {
	struct diff_side s[2];
	unsigned ignore;
	ff_diff_fn fn;
	void *ctx;
	struct ff_err *err;
	long count;
	int stop, failed;
	uint8_t *buf[2];           /* DIFF_CHUNK each, for contents */
	struct ff_diff_change *ch; /* the current entry's changes */
	size_t n_ch, cap_ch;
};

/* Records "NAME: path: what strerror(code)" once and stops the walk;
 * returns -1. */
int ff_diff_fail(struct diff_walk *w, int side, const char *path, int code, const char *what);
int ff_diff_wants(const struct diff_walk *w, enum ff_diff_attr a);
/* A zeroed change record for the current entry; NULL after ff_diff_fail. */
struct ff_diff_change *ff_diff_add(struct diff_walk *w, enum ff_diff_attr attr);
/* Frees the current entry's changes (their names and byte values). */
void ff_diff_clear(struct diff_walk *w);

/* Attribute comparisons: each adds a change when the two differ.  h and st
 * are the old [0] and new [1] sides. */
void ff_diff_num(struct diff_walk *w, enum ff_diff_attr attr, uint64_t from, uint64_t to);
void ff_diff_target(struct diff_walk *w, const uint64_t h[2], const char *path);
void ff_diff_contents(struct diff_walk *w, const uint64_t h[2], const char *path);
void ff_diff_link(struct diff_walk *w, const uint64_t h[2], const char *path);
void ff_diff_xattrs(struct diff_walk *w, const uint64_t h[2], const char *path);

#endif
