/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Errors travel as return codes plus an ff_err message buffer.  Libraries
 * fill the buffer and return; only a program's main prints and chooses the
 * exit code. */
#ifndef FF_COMMON_ERROR_H
#define FF_COMMON_ERROR_H

#include <stddef.h>

#define FF_ERR_MSG_MAX 512

struct ff_err {
	int code;                 /* a positive errno value, or 0 */
	char msg[FF_ERR_MSG_MAX]; /* "what: problem (numbers)" */
};

/* Record a message (printf-style) and an errno-style code; returns -1 so a
 * caller can write `return ff_err_set(err, EIO, "...")`.  err may be NULL. */
int ff_err_set(struct ff_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like ff_err_set, appending ": strerror(code)". */
int ff_err_sys(struct ff_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message with more context, e.g. the file name. */
int ff_err_prefix(struct ff_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void ff_err_clear(struct ff_err *err);

#endif
