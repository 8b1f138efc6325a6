/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The source-tree parsers' fuzz targets share this setup: a tree with
 * neutral options that warns into the void, and a pass that reads back
 * every regular file's content the way the builders would. */
#ifndef FF_TESTS_FUZZ_TREE_COMMON_H
#define FF_TESTS_FUZZ_TREE_COMMON_H

#include "tree/tree.h"

struct ff_tree *fuzz_tree_new(void);
/* The same with the caller's options (its warn callback is replaced). */
struct ff_tree *fuzz_tree_new_opts(struct ff_tree_opts *o);
/* finish, then read each regular file (bounded) through ff_tree_open_data. */
void fuzz_tree_finish_and_read(struct ff_tree *tree);

#endif
