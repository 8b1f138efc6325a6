/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/warn.h"

#include <stdarg.h>
#include <stdio.h>

void ff_warnf(ff_warn_fn fn, void *ctx, enum ff_warn_kind kind, const char *path,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ff_vwarnf(fn, ctx, kind, path, fmt, ap);
	va_end(ap);
}

const char *ff_warning_text(const struct ff_warning *w, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s%s%s", w->path ? w->path : "", w->path ? ": " : "", w->msg);
	return buf;
}

void ff_vwarnf(ff_warn_fn fn, void *ctx, enum ff_warn_kind kind, const char *path,
	       const char *fmt, va_list ap)
{
	char msg[1024];

	if (!fn)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fn(ctx, &(struct ff_warning){kind, path, msg});
}
