/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The source options both mkfs programs share, so that --all-root,
 * --spec, --exclude, SOURCE_DATE_EPOCH, tar input and the rest mean the
 * same for mkfs.squashfs and mkfs.yaffs2.
 *
 * A main puts FF_SOURCE_LONG_OPTIONS (and, where it applies,
 * FF_SOURCE_SORT_OPTION) into its getopt_long table, "e:" into its short
 * options, and hands every option getopt returns to
 * ff_source_args_option() first; a return of 1 means "not a source
 * option, yours".  After the options: ff_source_args_epoch() with
 * getenv("SOURCE_DATE_EPOCH"), ff_source_args_positional() for SOURCE and
 * IMAGE, then ff_source_args_build() gives the finished tree.
 *
 * Library code: nothing here prints; errors name the option, value, file
 * or line. */
#ifndef FF_MKFS_SOURCE_ARGS_H
#define FF_MKFS_SOURCE_ARGS_H

#include <getopt.h>
#include <stddef.h>

#include "common/error.h"
#include "tree/action.h"
#include "tree/tree.h"

/* getopt codes of the source options.  A main numbers its own long-only
 * options from 256 up to below FF_SRC_FIRST. */
enum ff_src_opt {
	FF_SRC_EXCLUDE = 'e',
	FF_SRC_FIRST = 0x1000,
	FF_SRC_ALL_ROOT = FF_SRC_FIRST,
	FF_SRC_FORCE_UID,
	FF_SRC_FORCE_GID,
	FF_SRC_MTIME,
	FF_SRC_ALL_TIME,
	FF_SRC_NO_XATTRS,
	FF_SRC_EXCLUDE_FILE,
	FF_SRC_ONE_FS,
	FF_SRC_IGNORE_ERRORS,
	FF_SRC_SPEC,
	FF_SRC_PSEUDO_FILE,
	FF_SRC_PSEUDO,
	FF_SRC_SORT,
	FF_SRC_ROOT_UID,
	FF_SRC_ROOT_GID,
	FF_SRC_ROOT_MODE,
	FF_SRC_ROOT_TIME,
	FF_SRC_UID_GID_OFFSET,
	FF_SRC_FORCE_FILE_MODE,
	FF_SRC_FORCE_DIR_MODE,
	FF_SRC_NO_HARDLINKS,
	FF_SRC_KEEP_AS_DIR,
	FF_SRC_TAR,
	FF_SRC_WILDCARDS,
	FF_SRC_REGEX,
	FF_SRC_XATTRS,
	FF_SRC_XATTRS_EXCLUDE,
	FF_SRC_XATTRS_INCLUDE,
	FF_SRC_NO_STRIP,
	FF_SRC_CPIO,
	FF_SRC_CPIO0,
	FF_SRC_MAX_DEPTH,
	FF_SRC_ONE_FS_X,
	FF_SRC_XATTRS_ADD,
	FF_SRC_DEFAULT_MODE,
	FF_SRC_DEFAULT_UID,
	FF_SRC_DEFAULT_GID,
	FF_SRC_PSEUDO_DIR,
	FF_SRC_PSEUDO_OVERRIDE,
	FF_SRC_DEVICE_TABLE,
	FF_SRC_ACTION,          /* + enum ff_action_log */
	FF_SRC_ACTION_LAST = FF_SRC_ACTION + 3,
	FF_SRC_ACTION_FILE,     /* + enum ff_action_log */
	FF_SRC_ACTION_FILE_LAST = FF_SRC_ACTION_FILE + 3,
};

#define FF_SOURCE_LONG_OPTIONS \
	{ "all-root", no_argument, NULL, FF_SRC_ALL_ROOT }, \
	{ "force-uid", required_argument, NULL, FF_SRC_FORCE_UID }, \
	{ "force-gid", required_argument, NULL, FF_SRC_FORCE_GID }, \
	{ "mtime", required_argument, NULL, FF_SRC_MTIME }, \
	{ "all-time", required_argument, NULL, FF_SRC_ALL_TIME }, \
	{ "no-xattrs", no_argument, NULL, FF_SRC_NO_XATTRS }, \
	{ "exclude", required_argument, NULL, FF_SRC_EXCLUDE }, \
	{ "exclude-file", required_argument, NULL, FF_SRC_EXCLUDE_FILE }, \
	{ "one-file-system", no_argument, NULL, FF_SRC_ONE_FS }, \
	{ "ignore-errors", no_argument, NULL, FF_SRC_IGNORE_ERRORS }, \
	{ "spec", required_argument, NULL, FF_SRC_SPEC }, \
	{ "device-table", required_argument, NULL, FF_SRC_DEVICE_TABLE }, \
	{ "pseudo-file", required_argument, NULL, FF_SRC_PSEUDO_FILE }, \
	{ "pseudo", required_argument, NULL, FF_SRC_PSEUDO }, \
	{ "root-uid", required_argument, NULL, FF_SRC_ROOT_UID }, \
	{ "root-gid", required_argument, NULL, FF_SRC_ROOT_GID }, \
	{ "root-mode", required_argument, NULL, FF_SRC_ROOT_MODE }, \
	{ "root-time", required_argument, NULL, FF_SRC_ROOT_TIME }, \
	{ "uid-gid-offset", required_argument, NULL, FF_SRC_UID_GID_OFFSET }, \
	{ "force-file-mode", required_argument, NULL, FF_SRC_FORCE_FILE_MODE }, \
	{ "force-dir-mode", required_argument, NULL, FF_SRC_FORCE_DIR_MODE }, \
	{ "no-hardlinks", no_argument, NULL, FF_SRC_NO_HARDLINKS }, \
	{ "keep-as-directory", no_argument, NULL, FF_SRC_KEEP_AS_DIR }, \
	{ "tar", no_argument, NULL, FF_SRC_TAR }, \
	{ "wildcards", no_argument, NULL, FF_SRC_WILDCARDS }, \
	{ "regex", no_argument, NULL, FF_SRC_REGEX }, \
	{ "xattrs", no_argument, NULL, FF_SRC_XATTRS }, \
	{ "xattrs-exclude", required_argument, NULL, FF_SRC_XATTRS_EXCLUDE }, \
	{ "xattrs-include", required_argument, NULL, FF_SRC_XATTRS_INCLUDE }, \
	{ "no-strip", no_argument, NULL, FF_SRC_NO_STRIP }, \
	{ "cpio-style", no_argument, NULL, FF_SRC_CPIO }, \
	{ "cpio-style0", no_argument, NULL, FF_SRC_CPIO0 }, \
	{ "max-depth", required_argument, NULL, FF_SRC_MAX_DEPTH }, \
	{ "one-file-system-x", no_argument, NULL, FF_SRC_ONE_FS_X }, \
	{ "xattrs-add", required_argument, NULL, FF_SRC_XATTRS_ADD }, \
	{ "default-mode", required_argument, NULL, FF_SRC_DEFAULT_MODE }, \
	{ "default-uid", required_argument, NULL, FF_SRC_DEFAULT_UID }, \
	{ "default-gid", required_argument, NULL, FF_SRC_DEFAULT_GID }, \
	{ "pseudo-dir", required_argument, NULL, FF_SRC_PSEUDO_DIR }, \
	{ "pseudo-override", no_argument, NULL, FF_SRC_PSEUDO_OVERRIDE }, \
	{ "action", required_argument, NULL, FF_SRC_ACTION + FF_ACTION_LOG_NONE }, \
	{ "log-action", required_argument, NULL, FF_SRC_ACTION + FF_ACTION_LOG_ALL }, \
	{ "true-action", required_argument, NULL, FF_SRC_ACTION + FF_ACTION_LOG_TRUE }, \
	{ "false-action", required_argument, NULL, FF_SRC_ACTION + FF_ACTION_LOG_FALSE }, \
	{ "action-file", required_argument, NULL, FF_SRC_ACTION_FILE + FF_ACTION_LOG_NONE }, \
	{ "log-action-file", required_argument, NULL, \
	  FF_SRC_ACTION_FILE + FF_ACTION_LOG_ALL }, \
	{ "true-action-file", required_argument, NULL, \
	  FF_SRC_ACTION_FILE + FF_ACTION_LOG_TRUE }, \
	{ "false-action-file", required_argument, NULL, \
	  FF_SRC_ACTION_FILE + FF_ACTION_LOG_FALSE }
/* Block order priorities only mean something to a format that places
 * file data freely (SquashFS). */
#define FF_SOURCE_SORT_OPTION { "sort", required_argument, NULL, FF_SRC_SORT }

/* A growable list of strings (not owned unless the owner says so). */
struct ff_strv {
	const char **v;
	size_t n, cap;
};
int ff_strv_push(struct ff_strv *l, const char *s, struct ff_err *err);
/* Frees the array; with free_strings, each string too. */
void ff_strv_free(struct ff_strv *l, int free_strings);

struct ff_source_args {
	const char *source;       /* directory, tar archive, "-" (stdin) or NULL */
	/* Several sources (mksquashfs a b c IMAGE, or one with
	 * --keep-as-directory): each becomes a root entry named after it. */
	struct ff_strv sources;
	int keep_as_dir;
	int tar_stdin;            /* --tar: SOURCE is a tar on standard input */
	/* --no-strip (mksquashfs -no-strip, -tarstyle): each SOURCE goes in
	 * at its own path, leading directories included, as tar does. */
	int no_strip;
	/* --cpio-style (-cpiostyle) / --cpio-style0 (-cpiostyle0): the
	 * entries are the paths on standard input, one a line or NUL-ended,
	 * as cpio reads them. */
	enum { FF_CPIO_NONE, FF_CPIO_LINES, FF_CPIO_NUL } cpio;
	struct ff_strv xattrs_add; /* --xattrs-add NAME=VALUE */
	struct ff_strv specs, pseudo_files, pseudo_lines;
	struct ff_strv device_tables; /* --device-table FILE (makedevs format) */
	struct ff_strv excludes, exclude_files;
	struct ff_strv owned;     /* exclude-file lines, freed with the args */
	const char *sort_file;
	/* --mtime and SOURCE_DATE_EPOCH set tree.clamp_time, which a format
	 * with an image time (SquashFS) also uses as that time. */
	struct ff_tree_opts tree;
	struct ff_actions *actions; /* --action and friends, parsed as given */
	unsigned warnings;        /* warnings passed on during the build */
	void (*log)(void *ctx, const char *msg); /* --log-action lines (warn_ctx) */
	ff_warn_fn warn;
	void *warn_ctx;
	/* Optional: runs on the tree once the sources are in, before
	 * ff_tree_finish (mkfs.squashfs' append step adds the old image). */
	int (*before_finish)(void *ctx, struct ff_tree *tree, struct ff_err *err);
	void *before_finish_ctx;
};

void ff_source_args_init(struct ff_source_args *a);
void ff_source_args_free(struct ff_source_args *a);

/* Handles a source option by getopt code.  0 handled, 1 not a source
 * option, -1 bad value (err names the option and value). */
int ff_source_args_option(struct ff_source_args *a, int code, const char *arg,
			  struct ff_err *err);
/* The same by long name without dashes ("all-root"); 1 for other names. */
int ff_source_args_option_name(struct ff_source_args *a, const char *name, const char *arg,
			       struct ff_err *err);
/* The long option ("--pseudo-file") a mksquashfs single-dash spelling of a
 * source option stands for ("-pf"), or NULL. */
const char *ff_source_single_dash(const char *word);
/* Rewrites argv's mksquashfs single-dash spellings in place for getopt,
 * up to a "--"; keep (or NULL) is a word the program itself owns and that
 * stays as it is (mkfs.jffs2's -p, its pad). */
void ff_source_map_single_dash(int argc, char **argv, const char *keep);

/* SOURCE_DATE_EPOCH (value may be NULL or ""): the clamp time unless
 * --mtime gave one. */
int ff_source_args_epoch(struct ff_source_args *a, const char *value, struct ff_err *err);
/* The n words left after the options: SOURCE... IMAGE, or IMAGE alone when
 * spec or pseudo definitions or --tar describe the tree. */
int ff_source_args_positional(struct ff_source_args *a, int n, char *const *words,
			      const char **image, struct ff_err *err);
/* Refuses an IMAGE inside the SOURCE directory (it would be read into
 * itself) or an IMAGE that is the SOURCE archive. */
int ff_source_args_check_image(const struct ff_source_args *a, const char *image,
			       struct ff_err *err);
/* Reads the exclude files, then fills a tree from SOURCE (directory or tar,
 * detected), spec files, pseudo files and lines, the sort file, and
 * finishes it.  Warnings go to a->warn and are counted. */
struct ff_tree *ff_source_args_build(struct ff_source_args *a, struct ff_err *err);

#endif
