/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Private to the library: what the writers' public API files
 * (squashfs/api_squashfs.c, yaffs2/api_yaffs2.c) need of a struct
 * ff_fstree (<flashfs/fstree.h>). */
#ifndef FF_TREE_API_FSTREE_H
#define FF_TREE_API_FSTREE_H

#include <flashfs/fstree.h>

#include "common/error.h"
#include "tree/tree.h"

/* The tree, finished on first use (ff_tree_finish); NULL with err. */
const struct ff_tree *ff_api_fstree_finish(struct ff_fstree *t, struct ff_err *err);

/* The tree was created with no_xattrs (the SquashFS superblock says so). */
int ff_api_fstree_no_xattrs(const struct ff_fstree *t);

#endif
