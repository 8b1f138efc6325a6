/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Excludes with mksquashfs -e/-ef semantics: a pattern is matched against
 * the path relative to the source root; excluding a directory excludes
 * everything below it, so a path is also excluded when one of its leading
 * directories matches.  A pattern starting with "... " (mksquashfs
 * -wildcards) matches at any depth. */
#include "tree/tree_priv.h"
#include "common/regex.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mksquashfs -regex: each "/"-separated part of the pattern is an extended
 * regular expression that must match the path's part at the same depth.
 * The parts are compiled once (ff_tree_compile_excludes): compiling them
 * for every path checked made a -regex build of a large tree crawl. */
struct ff_exclude_re {
	regex_t *parts;
	size_t n;
};

static int regex_component(const regex_t *re, const char *name, size_t nlen)
{
	char subject[4096];

	if (nlen >= sizeof(subject))
		return 0;
	snprintf(subject, sizeof(subject), "%.*s", (int)nlen, name);
	return regexec(re, subject, 0, NULL, 0) == 0;
}

static int regex_match(const struct ff_exclude_re *x, const char *rel)
{
	for (size_t k = 0; k < x->n; k++) {
		size_t nlen = strcspn(rel, "/");

		if (!regex_component(&x->parts[k], rel, nlen))
			return 0;
		rel += nlen;
		if (k + 1 == x->n || !*rel)
			return k + 1 == x->n && !*rel;
		rel++;
	}
	return 0;
}

static int match_anywhere(const char *pat, const char *rel)
{
	for (const char *p = rel; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (fnmatch(pat, p, FNM_PATHNAME) == 0)
			return 1;
	}
	return 0;
}

static int matches(const struct ff_tree *tree, const char *rel)
{
	for (size_t i = 0; i < tree->n_excludes; i++) {
		const char *pat = tree->excludes[i];

		if (tree->exclude_re) {
			if (regex_match(&tree->exclude_re[i], rel))
				return 1;
		} else if (!strncmp(pat, "... ", 4) ? match_anywhere(pat + 4, rel)
					     : fnmatch(pat, rel, FNM_PATHNAME) == 0)
			return 1;
	}
	return 0;
}

int ff_tree_excluded(const struct ff_tree *tree, const char *rel)
{
	char buf[4096];
	size_t len = strlen(rel);

	if (!tree->n_excludes || !*rel)
		return 0;
	if (matches(tree, rel))
		return 1;
	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, rel, len + 1);
	for (char *s = strrchr(buf, '/'); s; s = strrchr(buf, '/')) {
		*s = '\0';
		if (matches(tree, buf))
			return 1;
	}
	return 0;
}

/* Every part of a -regex pattern split at "/" ("a//b" has an empty middle
 * part, which matches any name); a part that is no regular expression (or
 * one too costly to compile) is an error up front, as in mksquashfs, not
 * an exclude that silently never matches. */
static int compile_parts(struct ff_exclude_re *x, const char *pat, struct ff_err *err)
{
	char part[4096];
	size_t n = 1;

	for (const char *p = pat; *p; p++)
		n += *p == '/';
	if (!(x->parts = calloc(n, sizeof(*x->parts))))
		return ff_err_set(err, ENOMEM, "exclude '%s': out of memory", pat);
	for (const char *p = pat; x->n < n; p++) {
		size_t len = strcspn(p, "/");

		if (len >= sizeof(part))
			return ff_err_set(err, EINVAL, "exclude '%s': a part longer than %zu bytes",
					  pat, sizeof(part) - 1);
		snprintf(part, sizeof(part), "%.*s", (int)len, p);
		if (ff_regcomp_ere(&x->parts[x->n], part, err))
			return ff_err_prefix(err, "exclude '%s'", pat);
		x->n++;
		p += len;
	}
	return 0;
}

int ff_tree_compile_excludes(struct ff_tree *tree, struct ff_err *err)
{
	if (tree->opts.exclude_mode != FF_EXCLUDE_REGEX || !tree->n_excludes)
		return 0;
	tree->exclude_re = calloc(tree->n_excludes, sizeof(*tree->exclude_re));
	if (!tree->exclude_re)
		return ff_err_set(err, ENOMEM, "excludes: out of memory");
	for (size_t i = 0; i < tree->n_excludes; i++)
		if (compile_parts(&tree->exclude_re[i], tree->excludes[i], err))
			return -1;
	return 0;
}

void ff_tree_free_excludes(struct ff_tree *tree)
{
	if (!tree->exclude_re)
		return;
	for (size_t i = 0; i < tree->n_excludes; i++) {
		for (size_t k = 0; k < tree->exclude_re[i].n; k++)
			regfree(&tree->exclude_re[i].parts[k]);
		free(tree->exclude_re[i].parts);
	}
	free(tree->exclude_re);
	tree->exclude_re = NULL;
}
