/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ff_err_set(struct ff_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int ff_err_sys(struct ff_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", strerror(code));
	return -1;
}

int ff_err_prefix(struct ff_err *err, const char *fmt, ...)
{
	char head[FF_ERR_MSG_MAX], tmp[2 * FF_ERR_MSG_MAX + 2];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	snprintf(tmp, sizeof(tmp), "%s: %s", head, err->msg);
	memcpy(err->msg, tmp, sizeof(err->msg) - 1);
	err->msg[sizeof(err->msg) - 1] = '\0';
	return -1;
}

void ff_err_clear(struct ff_err *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}
