/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Compares two trees through common/fs.h (any two images, or an image and
 * a host directory opened with image/dir_fs.h) and reports each entry that
 * differs as a structured record; the caller words and prints it.
 *
 * Both trees are walked together, each directory's names in byte order.
 * An entry only in one tree is reported once (an added or removed
 * directory's contents are not listed).  A changed type is reported alone
 * and a directory that became something else is not entered.  Contents are
 * compared only where the sizes are equal, by streaming both files. */
#ifndef FF_DIFF_DIFF_H
#define FF_DIFF_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/fs.h"

enum ff_diff_kind { FF_DIFF_ADDED, FF_DIFF_REMOVED, FF_DIFF_CHANGED };

enum ff_diff_attr {
	FF_DIFF_TYPE,     /* num: the S_IFMT bits */
	FF_DIFF_MODE,     /* num: permission bits (07777) */
	FF_DIFF_UID,      /* num */
	FF_DIFF_GID,      /* num */
	FF_DIFF_MTIME,    /* time: seconds since the epoch */
	FF_DIFF_SIZE,     /* num: bytes (regular files) */
	FF_DIFF_CONTENTS, /* offset: first byte that differs; no values */
	FF_DIFF_TARGET,   /* bytes: symlink target */
	FF_DIFF_RDEV,     /* major, minor (device nodes) */
	FF_DIFF_XATTR,    /* name; bytes: the value, present = 0 when absent */
	FF_DIFF_LINK,     /* bytes: the path of an earlier name of the same
			   * object (hard link), present = 0 when none */
	FF_DIFF_NATTRS
};

/* One side's value of an attribute; which member counts depends on it.
 * bytes is followed by a NUL that len does not count. */
struct ff_diff_value {
	int present;
	uint64_t num;
	int64_t time;
	uint32_t major, minor;
	const void *bytes;
	size_t len;
};

struct ff_diff_change {
	enum ff_diff_attr attr;
	const char *name;   /* FF_DIFF_XATTR: the attribute's full name */
	uint64_t offset;    /* FF_DIFF_CONTENTS */
	struct ff_diff_value from, to;
};

struct ff_diff_entry {
	const char *path;            /* "/" for the root, "/a/b" below it */
	enum ff_diff_kind kind;
	uint32_t from_mode, to_mode; /* type and permissions; 0 on a side that lacks it */
	const struct ff_diff_change *changes; /* FF_DIFF_CHANGED only */
	size_t n_changes;
};

/* Return non-zero to stop the comparison (ff_diff then returns what it
 * has counted). */
typedef int (*ff_diff_fn)(void *ctx, const struct ff_diff_entry *e);

struct ff_diff_opts {
	unsigned ignore;            /* bits 1u << FF_DIFF_...: attributes not compared */
	const char *from_name;      /* the trees' names for error messages */
	const char *to_name;
};

/* Returns the number of entries reported, or -1 with err set when either
 * tree could not be read ("NAME: /path: problem"). */
long ff_diff(struct ff_fs *from, struct ff_fs *to, const struct ff_diff_opts *opts,
	     ff_diff_fn fn, void *ctx, struct ff_err *err);

/* "file", "directory", "symlink", "char-device", "block-device", "fifo",
 * "socket", or "unknown" for the S_IFMT bits of mode. */
const char *ff_diff_type_name(uint32_t mode);
/* "type", "mode", "uid", ... as the JSON output and the man page name them. */
const char *ff_diff_attr_name(enum ff_diff_attr attr);

#endif
