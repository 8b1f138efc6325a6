/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The source options of the mkfs programs and the tree they describe. */
#include "mkfs/source_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tree/arg_value.h"
#include "tree/tree.h"

static const struct option source_opts[] = {
	FF_SOURCE_LONG_OPTIONS,
	FF_SOURCE_SORT_OPTION,
	{ NULL, 0, NULL, 0 },
};

/* mksquashfs spellings of the source options. */
static const char *const single_dash[][2] = {
	{ "-all-root", "--all-root" }, { "-root-owned", "--all-root" },
	{ "-force-uid", "--force-uid" }, { "-force-gid", "--force-gid" },
	{ "-all-time", "--all-time" }, { "-no-xattrs", "--no-xattrs" },
	{ "-ef", "--exclude-file" }, { "-one-file-system", "--one-file-system" },
	{ "-pf", "--pseudo-file" }, { "-p", "--pseudo" },
};

int ff_strv_push(struct ff_strv *l, const char *s, struct ff_err *err)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		const char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return ff_err_sys(err, ENOMEM, "option list of %zu entries", cap);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = s;
	return 0;
}

void ff_strv_free(struct ff_strv *l, int free_strings)
{
	for (size_t i = 0; free_strings && i < l->n; i++)
		free((char *)l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void ff_source_args_init(struct ff_source_args *a)
{
	memset(a, 0, sizeof(*a));
	a->tree.force_uid = a->tree.force_gid = -1;
	a->tree.all_time = a->tree.clamp_time = -1;
}

void ff_source_args_free(struct ff_source_args *a)
{
	ff_strv_free(&a->sources, 0);
	ff_strv_free(&a->specs, 0);
	ff_strv_free(&a->device_tables, 0);
	ff_strv_free(&a->pseudo_files, 0);
	ff_strv_free(&a->pseudo_lines, 0);
	ff_strv_free(&a->excludes, 0);
	ff_strv_free(&a->exclude_files, 0);
	ff_strv_free(&a->xattrs_add, 0);
	ff_strv_free(&a->owned, 1);
	ff_actions_free(a->actions);
	a->actions = NULL;
}

static int action_option(struct ff_source_args *a, int code, const char *arg,
			 struct ff_err *err)
{
	if (!a->actions && !(a->actions = ff_actions_new()))
		return ff_err_set(err, ENOMEM, "actions: out of memory");
	if (code <= FF_SRC_ACTION_LAST)
		return ff_actions_add(a->actions, arg, (enum ff_action_log)(code - FF_SRC_ACTION),
				      err);
	return ff_actions_add_file(a->actions, arg,
				   (enum ff_action_log)(code - FF_SRC_ACTION_FILE), err);
}

static const char *long_name(int code)
{
	for (const struct option *o = source_opts; o->name; o++)
		if (o->val == code)
			return o->name;
	return "?";
}

static int list_option(struct ff_source_args *a, int code, const char *arg,
		       struct ff_err *err)
{
	switch (code) {
	case FF_SRC_EXCLUDE: return ff_strv_push(&a->excludes, arg, err);
	case FF_SRC_EXCLUDE_FILE: return ff_strv_push(&a->exclude_files, arg, err);
	case FF_SRC_SPEC: return ff_strv_push(&a->specs, arg, err);
	case FF_SRC_DEVICE_TABLE: return ff_strv_push(&a->device_tables, arg, err);
	case FF_SRC_PSEUDO_FILE: return ff_strv_push(&a->pseudo_files, arg, err);
	case FF_SRC_PSEUDO: return ff_strv_push(&a->pseudo_lines, arg, err);
	case FF_SRC_SORT: a->sort_file = arg; return 0;
	default: return 1;
	}
}

static int mode_option(const char *opt, const char *arg, const char **slot,
		       struct ff_err *err)
{
	if (ff_mode_expr_check(opt, arg, err))
		return -1;
	*slot = arg;
	return 0;
}

static int root_option(struct ff_source_args *a, const char *opt, int code, const char *arg,
		       struct ff_err *err)
{
	struct ff_tree_opts *t = &a->tree;
	uint32_t v;

	switch (code) {
	case FF_SRC_ROOT_UID: t->root_set |= FF_ROOT_UID;
		return ff_arg_owner(opt, arg, 0, &t->root_uid, err);
	case FF_SRC_ROOT_GID: t->root_set |= FF_ROOT_GID;
		return ff_arg_owner(opt, arg, 1, &t->root_gid, err);
	case FF_SRC_ROOT_TIME: t->root_set |= FF_ROOT_TIME;
		return ff_arg_time(opt, arg, &t->root_time, err);
	case FF_SRC_ROOT_MODE: return mode_option(opt, arg, &t->root_mode, err);
	case FF_SRC_FORCE_FILE_MODE: return mode_option(opt, arg, &t->force_file_mode, err);
	case FF_SRC_FORCE_DIR_MODE: return mode_option(opt, arg, &t->force_dir_mode, err);
	case FF_SRC_XATTRS_EXCLUDE: case FF_SRC_XATTRS_INCLUDE:
		if (ff_xattr_regex_check(opt, arg, err))
			return -1;
		*(code == FF_SRC_XATTRS_EXCLUDE ? &t->xattr_exclude : &t->xattr_include) = arg;
		return 0;
	case FF_SRC_UID_GID_OFFSET:
		if (ff_arg_u32(opt, arg, 0, UINT32_MAX, &v, err))
			return -1;
		t->uid_gid_offset = v;
		return 0;
	default:
		if (code >= FF_SRC_ACTION && code <= FF_SRC_ACTION_FILE_LAST)
			return action_option(a, code, arg, err);
		return list_option(a, code, arg, err);
	}
}

/* --pseudo-dir (mksquashfs -pd): "d MODE UID GID" or "D TIME MODE UID
 * GID", the attributes of the directories pseudo definitions imply. */
static int pseudo_dir(struct ff_source_args *a, const char *arg, struct ff_err *err)
{
	struct ff_dir_defaults *d = &a->tree.pseudo_dirs;
	char type[2], w[4][256];
	int n = sscanf(arg, " %1s %255s %255s %255s %255s", type, w[0], w[1], w[2], w[3]);
	int timed = n >= 1 && type[0] == 'D', i = timed;
	int64_t uid, gid;

	if (n < 1 || (type[0] != 'd' && !timed) || n != 4 + timed)
		return ff_err_set(err, EINVAL, "--pseudo-dir: '%s' is not \"d MODE UID GID\" or "
				  "\"D TIME MODE UID GID\"", arg);
	if (timed && ff_arg_time("--pseudo-dir", w[0], &d->mtime, err))
		return -1;
	if (ff_parse_u32(w[i], 8, 07777, &d->mode))
		return ff_err_set(err, EINVAL, "--pseudo-dir: '%s' is not an octal mode", w[i]);
	if (ff_arg_owner("--pseudo-dir", w[i + 1], 0, &uid, err) ||
	    ff_arg_owner("--pseudo-dir", w[i + 2], 1, &gid, err))
		return -1;
	d->uid = (uint32_t)uid;
	d->gid = (uint32_t)gid;
	d->set = FF_DEF_MODE | FF_DEF_UID | FF_DEF_GID | (timed ? FF_DEF_TIME : 0);
	return 0;
}

/* --default-mode/-uid/-gid: tar's implied directories and the root. */
static int default_option(struct ff_source_args *a, const char *opt, int code,
			  const char *arg, struct ff_err *err)
{
	struct ff_tree_opts *t = &a->tree;
	struct ff_dir_defaults *d = &t->tar_dirs;
	int64_t id;

	if (code == FF_SRC_DEFAULT_MODE) {
		d->mode = 0755;
		if (ff_mode_expr_check(opt, arg, err) || ff_mode_expr_apply(arg, &d->mode))
			return -1;
		d->set |= FF_DEF_MODE;
		t->root_mode = arg; /* mksquashfs: "this also sets the root" */
		return 0;
	}
	if (ff_arg_owner(opt, arg, code == FF_SRC_DEFAULT_GID, &id, err))
		return -1;
	if (code == FF_SRC_DEFAULT_UID) {
		d->uid = (uint32_t)id;
		d->set |= FF_DEF_UID;
		t->root_uid = id;
		t->root_set |= FF_ROOT_UID;
	} else {
		d->gid = (uint32_t)id;
		d->set |= FF_DEF_GID;
		t->root_gid = id;
		t->root_set |= FF_ROOT_GID;
	}
	return 0;
}

static int value_option(struct ff_source_args *a, int code, const char *arg,
			struct ff_err *err)
{
	char opt[32];

	snprintf(opt, sizeof(opt), "--%s", long_name(code));
	switch (code) {
	case FF_SRC_FORCE_UID: return ff_arg_owner(opt, arg, 0, &a->tree.force_uid, err);
	case FF_SRC_FORCE_GID: return ff_arg_owner(opt, arg, 1, &a->tree.force_gid, err);
	case FF_SRC_MTIME: return ff_arg_time(opt, arg, &a->tree.clamp_time, err);
	case FF_SRC_ALL_TIME: return ff_arg_time(opt, arg, &a->tree.all_time, err);
	case FF_SRC_MAX_DEPTH:
		a->tree.has_max_depth = 1;
		return ff_arg_u32(opt, arg, 0, UINT32_MAX, &a->tree.max_depth, err);
	case FF_SRC_XATTRS_ADD: return ff_strv_push(&a->xattrs_add, arg, err);
	case FF_SRC_PSEUDO_DIR: return pseudo_dir(a, arg, err);
	case FF_SRC_DEFAULT_MODE: case FF_SRC_DEFAULT_UID: case FF_SRC_DEFAULT_GID:
		return default_option(a, opt, code, arg, err);
	default: return root_option(a, opt, code, arg, err);
	}
}

int ff_source_args_option(struct ff_source_args *a, int code, const char *arg,
			  struct ff_err *err)
{
	switch (code) {
	case FF_SRC_ALL_ROOT: a->tree.all_root = 1; return 0;
	case FF_SRC_NO_XATTRS: a->tree.no_xattrs = 1; return 0;
	case FF_SRC_ONE_FS: a->tree.one_file_system = 1; return 0;
	case FF_SRC_IGNORE_ERRORS: a->tree.ignore_errors = 1; return 0;
	case FF_SRC_NO_HARDLINKS: a->tree.no_hardlinks = 1; return 0;
	case FF_SRC_KEEP_AS_DIR: a->keep_as_dir = 1; return 0;
	case FF_SRC_TAR: a->tar_stdin = 1; return 0;
	case FF_SRC_WILDCARDS: a->tree.exclude_mode = FF_EXCLUDE_WILDCARDS; return 0;
	case FF_SRC_REGEX: a->tree.exclude_mode = FF_EXCLUDE_REGEX; return 0;
	case FF_SRC_XATTRS: a->tree.no_xattrs = 0; return 0;
	case FF_SRC_ONE_FS_X: a->tree.one_file_system = 2; return 0;
	case FF_SRC_NO_STRIP: a->no_strip = 1; return 0;
	case FF_SRC_CPIO: a->cpio = FF_CPIO_LINES; return 0;
	case FF_SRC_CPIO0: a->cpio = FF_CPIO_NUL; return 0;
	case FF_SRC_PSEUDO_OVERRIDE: a->tree.pseudo_override = 1; return 0;
	default: break;
	}
	if (!arg)
		return 1;
	return value_option(a, code, arg, err);
}

int ff_source_args_option_name(struct ff_source_args *a, const char *name, const char *arg,
			       struct ff_err *err)
{
	for (const struct option *o = source_opts; o->name; o++) {
		if (strcmp(o->name, name))
			continue;
		if ((o->has_arg == required_argument) != (arg != NULL))
			return ff_err_set(err, EINVAL, "--%s: %s", name,
					  arg ? "takes no value" : "needs a value");
		return ff_source_args_option(a, o->val, arg, err);
	}
	return 1;
}

const char *ff_source_single_dash(const char *word)
{
	for (size_t i = 0; i < sizeof(single_dash) / sizeof(single_dash[0]); i++)
		if (!strcmp(word, single_dash[i][0]))
			return single_dash[i][1];
	return NULL;
}

void ff_source_map_single_dash(int argc, char **argv, const char *keep)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *word = ff_source_single_dash(argv[i]);

		if (word && !(keep && !strcmp(argv[i], keep)))
			argv[i] = (char *)word;
	}
}

int ff_source_args_epoch(struct ff_source_args *a, const char *value, struct ff_err *err)
{
	if (!value || !*value || a->tree.clamp_time >= 0)
		return 0;
	return ff_arg_time("SOURCE_DATE_EPOCH", value, &a->tree.clamp_time, err);
}

int ff_source_args_positional(struct ff_source_args *a, int n, char *const *words,
			      const char **image, struct ff_err *err)
{
	int have_defs = a->specs.n || a->pseudo_files.n || a->pseudo_lines.n ||
			a->device_tables.n;

	if (a->cpio) {
		/* IMAGE, or "- IMAGE" as mksquashfs writes it ("no sources") */
		if (a->tar_stdin)
			return ff_err_set(err, EINVAL, "--cpio-style and --tar both read standard "
					  "input");
		if (n != 1 && !(n == 2 && !strcmp(words[0], "-")))
			return ff_err_set(err, EINVAL, "--cpio-style reads the paths from standard "
					  "input: give only IMAGE (or - IMAGE), got %d arguments", n);
		*image = words[n - 1];
		return 0;
	}
	if (a->tar_stdin) {
		/* IMAGE, or "- IMAGE" as mksquashfs writes it */
		if (n != 1 && !(n == 2 && !strcmp(words[0], "-")))
			return ff_err_set(err, EINVAL, "--tar reads the tar from standard input: "
					  "give only IMAGE, got %d arguments", n);
		a->source = "-";
		*image = words[n - 1];
		return 0;
	}
	if (n > 2 || (n == 2 && (a->keep_as_dir || a->no_strip))) {
		for (int i = 0; i < n - 1; i++)
			if (ff_strv_push(&a->sources, words[i], err))
				return -1;
		*image = words[n - 1];
		return 0;
	}
	if (n == 2) {
		a->source = words[0];
		*image = words[1];
		return 0;
	}
	if (n == 1 && have_defs) {
		*image = words[0];
		return 0;
	}
	return ff_err_set(err, EINVAL, "expected SOURCE and IMAGE, got %d argument%s%s", n,
			  n == 1 ? "" : "s",
			  n == 1 ? " (only --spec, --pseudo or --tar builds without SOURCE)" : "");
}
