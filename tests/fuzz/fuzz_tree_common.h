/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The source-tree parsers' fuzz targets share this setup: a tree with
 * neutral options that warns into the void, and a pass that reads back
 * every regular file's content the way the builders would. */
#ifndef FF_TESTS_FUZZ_TREE_COMMON_H
#define FF_TESTS_FUZZ_TREE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tree/tree.h"

struct ff_tree *fuzz_tree_new(void);
/* The same with the caller's options (its warn callback is replaced). */
struct ff_tree *fuzz_tree_new_opts(struct ff_tree_opts *o);
/* finish, then read each regular file (bounded) through ff_tree_open_data. */
void fuzz_tree_finish_and_read(struct ff_tree *tree);
/* One input of a parser that reads a file: data written to a file named
 * name in the fuzzer's scratch directory, add(tree, path, err) on a new
 * tree, then the read-back pass when it succeeded.  Always returns 0. */
int fuzz_tree_file_input(const uint8_t *data, size_t size, const char *name,
			 int (*add)(struct ff_tree *, const char *, struct ff_err *));

#endif
