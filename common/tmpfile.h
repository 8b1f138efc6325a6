/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Unnamed scratch files (tmpfile.c) for what a builder spills rather than
 * holds: in $TMPDIR (or /tmp), gone when closed or when the process dies. */
#ifndef FF_COMMON_TMPFILE_H
#define FF_COMMON_TMPFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* A new empty read-write descriptor (close it with close), or -1 with err
 * naming `what` and the directory. */
int ff_tmpfile_open(const char *what, struct ff_err *err);

/* len bytes at off (pwrite until done), or -1 with err naming `what`. */
int ff_tmpfile_pwrite(int fd, const void *buf, size_t len, uint64_t off, const char *what,
		      struct ff_err *err);

/* len bytes at off (pread until done; a short file is an error), or -1. */
int ff_tmpfile_pread(int fd, void *buf, size_t len, uint64_t off, const char *what,
		     struct ff_err *err);

#endif
