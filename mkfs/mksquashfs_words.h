/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mksquashfs' option vocabulary for mkfs.squashfs: every single-dash word
 * mksquashfs 4.6/4.7 (and OpenWrt's patched 4.x) accepts, how many values it
 * takes, and what it means here.  mkfs.squashfs matches these words whole,
 * before any getopt-style short-option parsing, so "-nopad" is never read as
 * "-n -o pad". */
#ifndef FF_MKFS_MKSQUASHFS_WORDS_H
#define FF_MKFS_MKSQUASHFS_WORDS_H

#include <stddef.h>

enum ff_msq_kind {
	FF_MSQ_GNU,     /* the long option `gnu` (with the value when nargs = 1) */
	FF_MSQ_DEFAULT, /* what mkfs.squashfs does anyway: accepted, nothing to do */
	FF_MSQ_NOTE,    /* accepted; `note` says why it changes nothing here */
	FF_MSQ_HELP,    /* prints the help, exit 0 */
	FF_MSQ_REFUSE,  /* known to mksquashfs, not supported: exit 2 with `note` */
};

struct ff_msq_word {
	const char *word;     /* "-nopad" */
	int nargs;            /* 0 or 1 */
	enum ff_msq_kind kind;
	const char *gnu;      /* FF_MSQ_GNU: "--no-pad" */
	const char *note;     /* FF_MSQ_NOTE / FF_MSQ_REFUSE */
};

/* The entry for an exact word, or NULL. */
const struct ff_msq_word *ff_msq_word(const char *word);
/* A compressor option -Xname: its value count (0 or 1), or -1 when
 * mksquashfs has no such option. */
int ff_msq_x_nargs(const char *word);
/* The i-th -X word, NULL past the end (for --help). */
const char *ff_msq_x_word(size_t i);
/* All words, for --help (NULL-terminated list, table order). */
const struct ff_msq_word *ff_msq_words(void);

#endif
