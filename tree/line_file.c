/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Reading a description file line by line; errors gain "FILE:LINE". */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ff_lines_each(const char *path, ff_line_fn fn, void *ctx, struct ff_err *err)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	ssize_t len;
	int rc = 0;

	if (!f)
		return ff_err_sys(err, errno, "%s: cannot open", path);
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (strlen(line) != (size_t)len)
			rc = ff_err_set(err, EINVAL, "%s:%u: NUL byte in line", path, lineno);
		else if (fn(ctx, line, lineno, err))
			rc = ff_err_prefix(err, "%s:%u", path, lineno);
	}
	if (!rc && ferror(f))
		rc = ff_err_sys(err, EIO, "%s: read error", path);
	free(line);
	if (f != stdin)
		fclose(f);
	return rc;
}
