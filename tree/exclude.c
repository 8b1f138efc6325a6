/* Excludes with mksquashfs -e/-ef semantics: a pattern is matched against
 * the path relative to the source root; excluding a directory excludes
 * everything below it, so a path is also excluded when one of its leading
 * directories matches.  A pattern starting with "... " (mksquashfs
 * -wildcards) matches at any depth. */
#include "tree/tree_priv.h"

#include <fnmatch.h>
#include <string.h>

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

		if (!strncmp(pat, "... ", 4) ? match_anywhere(pat + 4, rel)
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
