/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: unpacking an image into a directory.
 *
 *   struct ff_extract_options o;
 *   struct ff_error err;
 *   ff_extract_options_init(&o, sizeof(o));
 *   o.warn = print_warning;
 *   if (ff_extract("rootfs.img", "rootfs", NULL, 0, &o, &err) < 0)
 *           fprintf(stderr, "%s\n", err.message);
 *
 * The image is opened as ff_reader_open opens it (format detected,
 * containers unwrapped, at an offset in a file or on a block device).
 * Everything is created below the target directory, by names checked one
 * at a time and never through a symbolic link, so no entry of a hostile
 * image can write outside it; such entries are refused and reported.
 * Owners, device nodes and all xattrs are restored when the process may do
 * so, otherwise a warning says once what was skipped.  File modes are set
 * exactly, whatever the umask.
 *
 * Thread safety: ff_extract uses threads of its own and calls the
 * callbacks from several of them at once; calls on different images may
 * run at the same time. */
#ifndef FLASHFS_EXTRACT_H
#define FLASHFS_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include <flashfs/error.h>

enum ff_extract_warning_kind {
	FF_EXTRACT_FAILED = 1,     /* an entry was refused or could not be written */
	FF_EXTRACT_NOT_PERMITTED,  /* owners, device nodes or xattrs need privileges
				    * the process lacks (told once per kind) */
	FF_EXTRACT_CASE_COLLISION, /* two names in a directory are equal when case
				    * is ignored, on a target that may ignore it */
	FF_EXTRACT_DAMAGED,        /* the image is damaged: what is missing from it */
	FF_EXTRACT_NOTE,           /* worth telling; nothing was left out */
};

struct ff_extract_warning {
	enum ff_extract_warning_kind kind;
	const char *path;    /* the entry, relative to the target; NULL when none */
	const char *message; /* one line, without the path */
};

/* Cumulative counts: regular files' bytes (each hard-linked file once) and
 * entries, done and in all (counted from the image's metadata before the
 * first entry is written, so the totals never change). */
struct ff_extract_progress {
	uint64_t bytes_done, bytes_total;
	uint64_t entries_done, entries_total;
};

/* Options carry their own size: a program built against an older, shorter
 * struct keeps working with a newer library, which gives the fields it
 * does not know their defaults. */
struct ff_extract_options {
	size_t size;          /* set by ff_extract_options_init */
	uint64_t offset;      /* the image starts this many bytes into the file */
	uint64_t cache_bytes; /* decoded-block cache budget; 0 = the default */
	unsigned jobs;        /* threads writing files; 0 = one per CPU */
	int force;            /* replace existing files (never directories) */
	int warn_case;        /* warn about case collisions on any target */
	/* Each warning, from any of the extraction's threads; NULL = not told
	 * (the result still says whether something failed). */
	void (*warn)(void *ctx, const struct ff_extract_warning *w);
	void *warn_ctx;
	/* As entries are done, from any of the extraction's threads (two calls
	 * running at once may arrive out of order); NULL = not told, and the
	 * totals are not counted. */
	void (*progress)(void *ctx, const struct ff_extract_progress *p);
	void *progress_ctx;
};

/* Sets opts->size to size (pass sizeof(*opts)) and every option to its
 * default: offset 0, default cache, one job per CPU, no callbacks. */
FF_API void ff_extract_options_init(struct ff_extract_options *opts, size_t size);

/* Extracts each of the n paths of the image (or all of it when n is 0)
 * into dir, which is created if missing; dir NULL names it after the
 * image's format ("squashfs-root", "yaffs2-root") in the current
 * directory.  opts may be NULL (the defaults).  Returns 0 when everything
 * was restored, 1 when some entries were refused, failed, skipped or are
 * missing from a damaged image, or when none of the paths is in the image
 * (each reported through opts->warn), or -1 with err when nothing could be
 * done (the image did not open, dir could not be made). */
FF_API int ff_extract(const char *image, const char *dir, const char *const *paths, size_t n,
		      const struct ff_extract_options *opts, struct ff_error *err);

#endif
