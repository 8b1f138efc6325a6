/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The directory walk's state, shared by scan_dir.c (one directory tree)
 * and scan_paths.c (a list of paths, mksquashfs style); not installed. */
#ifndef FF_TREE_SCAN_PRIV_H
#define FF_TREE_SCAN_PRIV_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "tree/tree_priv.h"

struct ino_ent {
	dev_t dev;
	ino_t ino;
	struct ff_node *node;
};

struct scan {
	struct ff_tree *tree;
	dev_t root_dev;
	struct ino_ent *inos;      /* (dev, ino) -> first name, open addressing */
	size_t ino_cap, ino_used;
	char path[PATH_MAX];       /* host path of the entry being looked at */
	size_t root_len;           /* path[root_len + 1] starts the relative path */
	struct ff_err *err;
	struct stat *gone;         /* inodes the exclude patterns name (default mode) */
	size_t n_gone;
	unsigned depth;            /* level of the directory being read (source = 1) */
	dev_t no_xattr_dev;        /* a file system that answered ENOTSUP */
	int no_xattr_seen;         /* no_xattr_dev is set */
};

const char *ff_scan_rel_path(const struct scan *s);
int ff_scan_entry_problem(struct scan *s, int code, const char *what);
int ff_scan_set_meta(struct scan *s, struct ff_node *n, const struct stat *st);
struct ff_node *ff_scan_entry_node(struct scan *s, struct ff_node *dir, const char *name,
					 uint32_t mode);
int ff_scan_subdir(struct scan *s, struct ff_node *dir, const char *name,
		   const struct stat *st);
int ff_scan_leaf(struct scan *s, struct ff_node *dir, const char *name,
		 const struct stat *st);

#endif
