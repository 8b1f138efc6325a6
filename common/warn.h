/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one way a library reports a warning: a callback given a structured
 * record, so a program counts or filters by kind instead of matching the
 * message text.  The program decides whether and how to print it. */
#ifndef FF_COMMON_WARN_H
#define FF_COMMON_WARN_H

#include <stdarg.h>
#include <stddef.h>

enum ff_warn_kind {
	FF_WARN_NOTE,           /* worth telling; nothing was left out */
	FF_WARN_SKIPPED,        /* a source entry was left out (--ignore-errors) */
	FF_WARN_CONVERTED,      /* stored other than the input asked (unknown tar type) */
	FF_WARN_IGNORED,        /* an input had no effect (a sort-file line, an xattr
				 * the format cannot store) */
	FF_WARN_DAMAGED,        /* a reader found damage; it goes on where it can */
	FF_WARN_FAILED,         /* an entry could not be written (extraction) */
	FF_WARN_NOT_PERMITTED,  /* owners, devices, xattrs need privileges we lack */
	FF_WARN_CASE_COLLISION, /* two names equal when case is ignored */
};

struct ff_warning {
	enum ff_warn_kind kind;
	const char *path;       /* the entry it is about, or NULL */
	const char *msg;        /* the problem, without the path */
};

typedef void (*ff_warn_fn)(void *ctx, const struct ff_warning *w);

/* Formats the message and calls fn (nothing when fn is NULL). */
void ff_warnf(ff_warn_fn fn, void *ctx, enum ff_warn_kind kind, const char *path,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "path: msg" (or msg) in buf, for a program's message line. */
const char *ff_warning_text(const struct ff_warning *w, char *buf, size_t cap);

void ff_vwarnf(ff_warn_fn fn, void *ctx, enum ff_warn_kind kind, const char *path,
	       const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

#endif
