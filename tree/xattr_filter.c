/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs -xattrs-exclude REGEX and -xattrs-include REGEX: drop the
 * extended attributes whose full name ("user.comment") matches, or does not
 * match, a POSIX extended regular expression. */
#include "tree/tree_priv.h"
#include "common/regex.h"

#include <stdlib.h>

int ff_xattr_regex_check(const char *opt, const char *re_text, struct ff_err *err)
{
	regex_t re;

	if (ff_regcomp_ere(&re, re_text, err))
		return ff_err_prefix(err, "%s", opt);
	regfree(&re);
	return 0;
}

/* Keep the xattrs of n for which (match == keep_if). */
static void filter_node(struct ff_node *n, const regex_t *re, int keep_if)
{
	uint32_t kept = 0;

	for (uint32_t i = 0; i < ff_node_n_xattrs(n); i++) {
		struct ff_xattr *x = &ff_node_xattrs(n)[i];

		if ((regexec(re, x->name, 0, NULL, 0) == 0) == keep_if) {
			ff_node_xattrs(n)[kept++] = *x;
			continue;
		}
		free(x->name);
		free(x->value);
	}
	ff_node_ext_of(n)->n_xattrs = (uint16_t)kept; /* n has xattrs */
}

static int filter_all(struct ff_tree *tree, const char *re_text, int keep_if,
		      struct ff_err *err)
{
	regex_t re;

	if (!re_text)
		return 0;
	if (ff_regcomp_ere(&re, re_text, err))
		return ff_err_prefix(err, "xattr filter");
	for (struct ff_node *n = tree->root; n; n = ff_tree_next(tree, n))
		if (!ff_node_link(n) && ff_node_n_xattrs(n))
			filter_node(n, &re, keep_if);
	regfree(&re);
	return 0;
}

int ff_xattr_filter_apply(struct ff_tree *tree, struct ff_err *err)
{
	if (filter_all(tree, tree->opts.xattr_exclude, 0, err))
		return -1;
	return filter_all(tree, tree->opts.xattr_include, 1, err);
}
