/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.squashfs' command line: GNU long options and mksquashfs' single-dash
 * words, parsed into one struct.  mkfs.squashfs parses its whole command
 * line with it, mkfs.ubi the words after `--squashfs DIR --`, so the two
 * accept the same options with the same messages.
 *
 * Parsing prints nothing, never exits and opens no file, except that
 * --action-file (-action-file and its -log/-true/-false forms) reads its
 * file as it is given, as the source options do.  It uses getopt_long, so
 * it is not reentrant (process state: one parse at a time). */
#ifndef FF_MKFS_SQUASHFS_ARGS_H
#define FF_MKFS_SQUASHFS_ARGS_H

#include <stdint.h>

#include "common/error.h"
#include "mkfs/source_args.h"

struct ff_fs;

/* Returns of ff_sqfs_args_parse and ff_sqfs_args_build besides 0. */
enum {
	FF_SQFS_ARGS_USAGE = -2,  /* a usage error: the caller adds its --help hint */
	FF_SQFS_ARGS_ERROR = -1,  /* any other error (err says what) */
	FF_SQFS_ARGS_HELP = 1,    /* --help, -help or a mksquashfs help word */
	FF_SQFS_ARGS_VERSION = 2, /* --version, -V */
};

/* mkfs_time: taken from the newest inode once the tree is built. */
#define FF_SQFS_MKFS_TIME_INODE (-2)

struct ff_sqfs_args {
	struct ff_source_args src;
	const char *comp_name;
	struct ff_strv comp_opts;
	struct ff_strv owned;	/* strings the parse allocated, freed with the args */
	uint32_t block_size;
	unsigned jobs;
	int64_t mkfs_time;	/* --mkfs-time; else the --mtime/SOURCE_DATE_EPOCH time;
				   FF_SQFS_MKFS_TIME_INODE: the newest inode time */
	int64_t fixed_time;	/* OpenWrt -fixed-time: every time and the image time */
	uint64_t offset;
	int no_fragments, always_fragments, no_dedup, no_exports, no_sparse, no_pad;
	int raw_inodes, raw_ids, raw_data, raw_fragments, raw_xattrs;
	int quiet, progress, json, info;
	const char *info_file;
	struct ff_strv notes;	/* mksquashfs word, one-line note: pairs */
	int noappend, comp_given, block_given; /* append unless -noappend */
	/* Set by the build when it appends: the entries the old image had and
	 * the entries the sources added to it (its root not counted). */
	int appending;
	uint64_t old_entries, appended;
	struct ff_fs *old;	/* the open old image while building */
	const char *image;
	/* Set before parsing when SOURCE and IMAGE come from elsewhere
	 * (mkfs.ubi --squashfs DIR): no word may be positional, and -e takes
	 * every word after it, as mksquashfs' -e after SOURCE IMAGE does. */
	int no_positionals;
	/* After parsing: the translated words (owned) and, among them, the
	 * words that were neither options nor their values. */
	char **words;
	char **pos;
	int n_pos;
};

/* The defaults: gzip, 128K blocks, the image time from the tree. */
void ff_sqfs_args_init(struct ff_sqfs_args *a);
void ff_sqfs_args_free(struct ff_sqfs_args *a);

/* Parses argv[1..argc-1] (argv[0] is only a name).  0 parsed, HELP,
 * VERSION, USAGE or ERROR with err naming the word.  Options given more
 * than once: the last wins, lists grow.  argv must outlive a. */
int ff_sqfs_args_parse(struct ff_sqfs_args *a, int argc, char **argv, struct ff_err *err);

/* After parsing: SOURCE_DATE_EPOCH (epoch, NULL when unset), SOURCE...
 * IMAGE from the positional words (with no_positionals: a positional word
 * is an error, and a->src.source and a->image are the caller's to set),
 * and the image time that follows.  0 or USAGE. */
int ff_sqfs_args_finish(struct ff_sqfs_args *a, const char *epoch, struct ff_err *err);

#endif
