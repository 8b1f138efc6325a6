/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Shared by the libFuzzer targets in tests/fuzz/.  The libraries read
 * images and source files by path, so each input is first written to a
 * file; the fs walker drives every operation of common/fs.h on whatever
 * an image parser managed to open. */
#ifndef FF_TESTS_FUZZ_UTIL_H
#define FF_TESTS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "common/fs.h"

/* Writes data to a memfd and returns "/proc/self/fd/N" in path (the caller
 * closes *fd).  Images need no directory, so this avoids disk traffic. */
int fuzz_memfd(const uint8_t *data, size_t size, int *fd, char *path, size_t cap);

/* A new directory PREFIX.XXXXXX in $TMPDIR (or /tmp), removed with what
 * it holds when the process exits. */
const char *fuzz_tmp_dir(const char *prefix);

/* Writes data to NAME inside a private temporary directory (created once
 * per process), for parsers that resolve paths relative to their input. */
int fuzz_tmp_file(const uint8_t *data, size_t size, const char *name, char *path,
		  size_t cap);

/* Every operation on every reachable node, with bounds on depth, node
 * count and bytes read so a hostile image cannot make one input slow;
 * then ops->check unless run_check is 0. */
void fuzz_walk_fs(struct ff_fs *fs, int run_check);

/* ff_open_opts with a log callback that discards messages. */
void fuzz_open_opts(struct ff_open_opts *o);

#endif
