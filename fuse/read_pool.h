/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Worker threads that answer the READ requests the request loop cannot
 * answer from decoded data at once (see read_pool.c). */
#ifndef FF_FUSE_READ_POOL_H
#define FF_FUSE_READ_POOL_H

#include "fuse/ll.h"

struct ff_read_pool;

/* NULL when no thread could be started (reads are then answered inline). */
struct ff_read_pool *ff_read_pool_new(struct ff_fuse *ff, unsigned threads);
/* Queues a read; a worker answers it.  0, or -EAGAIN when the queue is
 * full (then the caller must answer it). */
int ff_read_pool_submit(struct ff_read_pool *p, fuse_req_t req, uint64_t handle, size_t size,
			uint64_t off);
/* Answers what is still queued, then stops the workers. */
void ff_read_pool_free(struct ff_read_pool *p);

#endif
