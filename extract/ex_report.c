/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The extraction's messages and its shared target directories: every
 * failure counts once, and a full target stops the run (fail_sys). */
#include "extract/ex_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/pool.h"
#include "extract/extract_safe.h"

struct dirref *ff_ex_dirref_new(int fd)
{
	struct dirref *d = fd >= 0 ? malloc(sizeof(*d)) : NULL;

	if (!d)
		return NULL;
	d->fd = fd;
	atomic_init(&d->refs, 1);
	return d;
}

void ff_ex_dirref_put(struct dirref *d)
{
	if (d && atomic_fetch_sub(&d->refs, 1) == 1) {
		close(d->fd);
		free(d);
	}
}

void ff_ex_report(struct ex *ex, enum ff_warn_kind kind, const char *rel, const char *fmt, ...)
{
	char msg[1024];
	struct ff_warning w = {kind, rel, msg};
	va_list ap;

	if (!ex->o->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ex->o->warn(ex->o->warn_ctx, &w);
}

/* Progress: every entry is one item, each file's bytes counted once. */
void ff_ex_progress(struct ex *ex, uint64_t bytes)
{
	if (ex->o->progress)
		ex->o->progress(ex->o->progress_ctx, bytes, 1);
}

void ff_ex_fail(struct ex *ex, const char *rel, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ff_ex_report(ex, FF_WARN_FAILED, rel, "%s", msg);
	atomic_fetch_add(&ex->errors, 1);
}

int ff_ex_stopped(struct ex *ex)
{
	return atomic_load(&ex->stop_errno) != 0;
}

/* A system call on the target failed with e: a full target stops the
 * extraction (said once, by the result), anything else is this entry's
 * failure.  After a stop, entries still in flight fail without a word. */
void ff_ex_fail_sys(struct ex *ex, const char *rel, const char *what, int e)
{
	int none = 0;

	if (e == ENOSPC || e == EDQUOT) {
		atomic_compare_exchange_strong(&ex->stop_errno, &none, e);
		return;
	}
	if (!ff_ex_stopped(ex))
		ff_ex_fail(ex, rel, "%s: %s", what, strerror(e));
}

void ff_ex_warn_once(struct ex *ex, unsigned kind, const char *what)
{
	if (!(atomic_fetch_or(&ex->warned, kind) & kind))
		ff_ex_report(ex, FF_WARN_NOT_PERMITTED, NULL, "%s", what);
}
