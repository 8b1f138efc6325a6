/* Excludes with mksquashfs -e/-ef semantics: a pattern is matched against
 * the path relative to the source root; excluding a directory excludes
 * everything below it, so a path is also excluded when one of its leading
 * directories matches.  A pattern starting with "... " (mksquashfs
 * -wildcards) matches at any depth. */
#include "tree/tree_priv.h"

#include <fnmatch.h>
#include <regex.h>
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
	if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB))
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
