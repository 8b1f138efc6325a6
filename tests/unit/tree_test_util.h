/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Helpers shared by the tests/unit/test_tree_*.c files: a scratch
 * directory, writing small files into it, and trees with default options. */
#ifndef FF_TESTS_TREE_TEST_UTIL_H
#define FF_TESTS_TREE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree/tree.h"

static inline char *tt_mkdtemp(void)
{
	const char *base = getenv("TMPDIR");
	char tmpl[4096];

	snprintf(tmpl, sizeof(tmpl), "%s/ff-tree-test.XXXXXX", base && *base ? base : "/tmp");
	return strdup(mkdtemp(tmpl));
}

static inline void tt_rmrf(const char *dir)
{
	char cmd[4200];
	int rc;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	rc = system(cmd);
	(void)rc;
}

/* Writes len bytes (or strlen(text) when len is (size_t)-1) to dir/name. */
static inline char *tt_write(const char *dir, const char *name, const void *text, size_t len)
{
	char *path = malloc(4096);
	FILE *f;

	snprintf(path, 4096, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (len == (size_t)-1)
		len = strlen(text);
	if (fwrite(text, 1, len, f) != len)
		abort();
	fclose(f);
	return path;
}

static inline struct ff_tree_opts tt_opts(void)
{
	struct ff_tree_opts o;

	memset(&o, 0, sizeof(o));
	o.force_uid = o.force_gid = o.all_time = o.clamp_time = -1;
	return o;
}

static inline struct ff_node *tt_find(struct ff_tree *t, const char *path)
{
	char buf[4096];

	for (struct ff_node *n = ff_tree_root(t); n; n = ff_tree_next(t, n))
		if (ff_node_path(n, buf, sizeof(buf)) >= 0 && !strcmp(buf, path))
			return n;
	return NULL;
}

#endif
