/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The list of problems a scan and a build find, reported by check. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jffs2/scan.h"

void j2_problem(struct j2_problems *p, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	char *copy;

	p->total++;
	if (p->n >= J2_MAX_PROBLEMS)
		return;
	if (!p->v) {
		p->v = calloc(J2_MAX_PROBLEMS, sizeof(*p->v));
		if (!p->v)
			return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	copy = strdup(buf);
	if (copy)
		p->v[p->n++] = copy;
}

void j2_problems_free(struct j2_problems *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}
