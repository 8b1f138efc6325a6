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
#include <string.h>

/* mksquashfs -regex: each "/"-separated part of the pattern is an extended
 * regular expression that must match the path's part at the same depth. */
static int regex_component(const char *pat, size_t plen, const char *name, size_t nlen)
{
	char re_text[4096], subject[4096];
	regex_t re;
	int hit;

	if (plen >= sizeof(re_text) || nlen >= sizeof(subject))
		return 0;
	snprintf(re_text, sizeof(re_text), "%.*s", (int)plen, pat);
	snprintf(subject, sizeof(subject), "%.*s", (int)nlen, name);
	/* every part compiled once before (ff_tree_check_excludes) */
	if (ff_regcomp_ere(&re, re_text, NULL))
		return 0;
	hit = regexec(&re, subject, 0, NULL, 0) == 0;
	regfree(&re);
	return hit;
}

static int regex_match(const char *pat, const char *rel)
{
	for (;;) {
		size_t plen = strcspn(pat, "/"), nlen = strcspn(rel, "/");

		if (!regex_component(pat, plen, rel, nlen))
			return 0;
		pat += plen;
		rel += nlen;
		if (!*pat || !*rel)
			return !*pat && !*rel;
		pat++;
		rel++;
	}
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

		if (tree->opts.exclude_mode == FF_EXCLUDE_REGEX) {
			if (regex_match(pat, rel))
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

/* -regex patterns are compiled part by part while matching; a part that is
 * no regular expression (or one too costly to compile) is an error up
 * front, as in mksquashfs, not an exclude that silently never matches. */
int ff_tree_check_excludes(const struct ff_tree *tree, struct ff_err *err)
{
	char part[4096];
	regex_t re;

	if (tree->opts.exclude_mode != FF_EXCLUDE_REGEX)
		return 0;
	for (size_t i = 0; i < tree->n_excludes; i++) {
		for (const char *p = tree->excludes[i]; *p; p += *p == '/') {
			size_t len = strcspn(p, "/");

			if (len >= sizeof(part))
				return ff_err_set(err, EINVAL, "exclude '%s': a part longer than %zu bytes",
						  tree->excludes[i], sizeof(part) - 1);
			snprintf(part, sizeof(part), "%.*s", (int)len, p);
			p += len;
			if (ff_regcomp_ere(&re, part, err))
				return ff_err_prefix(err, "exclude '%s'", tree->excludes[i]);
			regfree(&re);
		}
	}
	return 0;
}
