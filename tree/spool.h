/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The spool (spool.c, spool_read.c): one unlinked scratch file holding
 * the contents of tar members, pseudo-file command output and library
 * callers' buffers, so nothing large is kept in memory.
 *
 * A million small tar members used to cost a million writes and, in the
 * data pass, a million reads, each a system call (most of such a build's
 * CPU time, issue 33).  Writes are gathered into one buffer and reads of
 * small regions are served from windows read ahead in one call each. */
#ifndef FF_TREE_SPOOL_H
#define FF_TREE_SPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

struct ff_spool;

/* Its scratch file is opened now (NULL and err on failure). */
struct ff_spool *ff_spool_new(struct ff_err *err);
void ff_spool_free(struct ff_spool *sp);

/* size bytes at *off.  A region with holes (a sparse tar member) starts
 * on a 4 KiB boundary and the file is extended over it at once, so its
 * holes stay unallocated and read back as zeros; any other region is
 * packed right after the one before, and its writer fills all of it. */
int ff_spool_region(struct ff_spool *sp, uint64_t size, int holes, uint64_t *off,
		    struct ff_err *err);
/* len bytes at off, gathered with the bytes before them when they follow
 * on; ff_spool_flush writes what is gathered. */
int ff_spool_write(struct ff_spool *sp, const void *buf, size_t len, uint64_t off,
		   struct ff_err *err);
int ff_spool_flush(struct ff_spool *sp, struct ff_err *err);
/* The last flush, when the tree is finished: the buffer is freed. */
int ff_spool_end_writes(struct ff_spool *sp, struct ff_err *err);
/* Everything readable from fd (command output) into a new region: its
 * offset and size. */
int ff_spool_append_fd(struct ff_spool *sp, int fd, uint64_t *off, uint64_t *size,
		       struct ff_err *err);

/* spool_read.c: up to len bytes at off (fewer only at the file's end), or
 * -1 with err.  Safe from several threads.  Small reads come from a read
 * window; what is still gathered for writing is flushed first. */
ssize_t ff_spool_read(struct ff_spool *sp, void *buf, size_t len, uint64_t off,
		      struct ff_err *err);

#endif
