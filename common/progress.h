/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A progress bar for long jobs (mkfs, extract): counts bytes and items done
 * against totals and redraws one line on a terminal,
 *
 *   [#########           ]  45%  123/456 files  12.3/40.1 MB  15.2 MB/s  ETA 0:03
 *
 * at most ten times a second (FF_PROGRESS_INTERVAL_MS in the environment
 * overrides, for tests).  Nothing is drawn when the fd is not a
 * terminal unless `force` is set (then a plain line at most once a second).
 * ff_progress_add may be called from any number of threads.  The main that
 * creates the object owns it; there is no global state. */
#ifndef FF_COMMON_PROGRESS_H
#define FF_COMMON_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ff_progress;

/* unit names the items ("files", "blocks"); NULL on allocation failure. */
struct ff_progress *ff_progress_new(int fd, const char *unit, int force);
/* Totals may be set (or raised) at any time; 0 means unknown.  Set them
 * before the first ff_progress_add: a total that grows makes the
 * percentage go backwards. */
void ff_progress_set_total(struct ff_progress *p, uint64_t bytes, uint64_t items);
/* Thread-safe; may redraw. */
void ff_progress_add(struct ff_progress *p, uint64_t bytes, uint64_t items);
/* Prints text (whole lines) to f, clearing the bar's line first so that a
 * message never lands at the end of the bar; the bar is redrawn at the next
 * update.  Without a bar (p NULL or not drawing) just prints. */
void ff_progress_message(struct ff_progress *p, FILE *f, const char *text);
/* Runs fn(ctx) with the bar's line cleared and no frame drawn meanwhile, so
 * whatever fn prints (a caller's warning callback) gets lines of its own. */
void ff_progress_aside(struct ff_progress *p, void (*fn)(void *), void *ctx);
/* Draws the final line (with the elapsed time) and a newline, if drawing. */
void ff_progress_finish(struct ff_progress *p);
void ff_progress_free(struct ff_progress *p);

/* The line itself, without "\r" or "\n": a pure function so it can be
 * tested.  Returns the length written (truncated to cap - 1). */
struct ff_progress_state {
	uint64_t done_bytes, total_bytes;
	uint64_t done_items, total_items;
	uint64_t elapsed_ns;
	const char *unit;
	int final;               /* show "in M:SS" instead of the ETA */
};
size_t ff_progress_format(char *buf, size_t cap, const struct ff_progress_state *s);

#endif
