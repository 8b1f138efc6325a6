/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The extraction's state, shared by its files (not installed): the walk
 * (extract.c) creates entries (ex_create.c), queues each file's contents to
 * the workers (ex_data.c), restores metadata (ex_meta.c) and reports
 * through ex_report.c. */
#ifndef FF_EXTRACT_EX_STATE_H
#define FF_EXTRACT_EX_STATE_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/hmap.h"
#include "common/vec.h"
#include "extract/extract.h"
#include "extract/extract_fold.h"

#define CHUNK (256u * 1024u)
#define MAX_DEPTH 1024
#define XATTR_MAX (64u * 1024u)

enum { W_OWNER = 1, W_DEVICE = 2, W_XATTR = 4, W_SOCKET = 8 };

struct item {
	char *rel;
	uint64_t handle;
	struct ff_stat st;
};

/* A regular file being filled.  A big file is split into several jobs so
 * that all workers can decompress it at once (one worker per file leaves
 * the others idle at the end of a tree with a few large files); the job
 * that finishes last restores the metadata, or removes the file when any
 * part failed. */
struct file {
	int fd;            /* -1: not created yet (see create_later) */
	struct dirref *dir; /* where a file not created yet goes */
	char *name;
	mode_t mode;
	char *rel;
	uint64_t handle;
	struct ff_stat st;
	atomic_int pending; /* jobs not finished */
	atomic_int failed;
	atomic_int tail_hole; /* the last bytes were not written: truncate */
};

struct job {
	struct file *f;
	uint64_t off, end;
};

#define SPLIT (4u * CHUNK) /* bytes per job */

#define QUEUE 256

struct ex {
	struct ff_fs *fs;
	struct ff_pool *pool; /* NULL: the walker does every job itself */
	uint8_t **bufs;       /* a worker's read buffer, by worker number */
	int sgid_dir; /* some target directory passes its group on */
	const struct ff_extract_opts *o;
	int root, is_root;
	uid_t uid;
	gid_t gid;
	struct ff_hmap links, dirs_seen;
	struct ff_fold *fold;
	struct ff_vec dirs; /* struct item: every directory made, in order */
	atomic_int errors;
	atomic_uint warned;
	/* The target is full (ENOSPC, EDQUOT): the first such error, after
	 * which nothing more is written and the result is 2.  Every later
	 * entry would fail the same way; one message says it. */
	atomic_int stop_errno;
	uint8_t *inline_buf; /* for jobs done by the walker itself */
};

/* An open target directory shared by the walker and the workers that
 * create files in it; the last one done with it closes it. */
struct dirref {
	int fd;
	atomic_int refs;
};

/* Where one entry goes: name in the open directory dirfd, rel for messages.
 * fold_first is the earlier name of the same directory that this one
 * equals when case is ignored, or NULL.  ref is dirfd's shared form, or
 * NULL when the entry must be created before the walker goes on. */
struct dst {
	int dirfd;
	const char *name, *rel, *fold_first;
	struct dirref *ref;
};

/* ---- image prefetch ---- */

/* A whole-image extraction reads (nearly) every byte of the image, but the
 * walker and the workers each issue small reads at scattered positions, so
 * the kernel's read-ahead never gets going and every cold block costs a
 * disk round trip.  This thread asks the kernel to stream the image's
 * source into the page cache ahead of them, a few MiB at a time so it can
 * be stopped (a hint: nothing where the source is not a file). */
#define PREFETCH_STEP (4u << 20)

struct prefetch {
	struct ff_pool *task;
	struct ff_bsrc *src;
	atomic_int stop;
};

struct dirref *ff_ex_dirref_new(int fd);
void ff_ex_dirref_put(struct dirref *d);
void ff_ex_report(struct ex *ex, enum ff_warn_kind kind, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void ff_ex_progress(struct ex *ex, uint64_t bytes);
void ff_ex_fail(struct ex *ex, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ff_ex_stopped(struct ex *ex);
void ff_ex_fail_sys(struct ex *ex, const char *rel, const char *what, int e);
void ff_ex_warn_once(struct ex *ex, unsigned kind, const char *what);
void ff_ex_meta_fd(struct ex *ex, const char *rel, uint64_t h, const struct ff_stat *st, int fd);
void ff_ex_meta_at(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st);
int ff_ex_clear_slot(struct ex *ex, const struct dst *d);
int ff_ex_open_dir(struct ex *ex, const struct dst *d, mode_t mode);
void ff_ex_make_link(struct ex *ex, const struct dst *d, const char *first);
void ff_ex_make_symlink(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st);
void ff_ex_make_node(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st);
int ff_ex_create_fd(struct ex *ex, const struct dst *d, mode_t mode);
void ff_ex_queue_file(struct ex *ex, struct file *f);
void ff_ex_file_free(struct file *f);
void ff_ex_start_workers(struct ex *ex);
void ff_ex_stop_workers(struct ex *ex);
void ff_ex_prefetch_start(struct prefetch *p, struct ff_bsrc *src);
void ff_ex_prefetch_stop(struct prefetch *p);

#endif
