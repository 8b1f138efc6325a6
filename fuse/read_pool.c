/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The workers behind the request loop.  The loop answers every read it
 * can from data the reader already holds decoded (fs read_cached), which
 * costs a copy; a read that has to wait for decompression is queued here
 * instead, so the loop goes on serving and several slow reads decompress
 * on several cores.  One receiving thread keeps the fast path free of the
 * thread hand-offs a pool of receivers pays on every request. */
#include "fuse/read_pool.h"

#include <errno.h>
#include <stdlib.h>

#include "common/pool.h"

#define MAX_WORKERS 64
#define QUEUE 1024 /* reads waiting; beyond that the loop answers inline */

struct job {
	fuse_req_t req;
	uint64_t handle;
	size_t size;
	uint64_t off;
};

struct ff_read_pool {
	struct ff_fuse *ff;
	struct ff_pool *pool;
};

static void run_job(void *user, void *job, unsigned worker)
{
	struct ff_read_pool *p = user;
	const struct job *j = job;

	(void)worker;
	ff_fuse_answer_read(p->ff, j->req, j->handle, j->size, j->off, 0);
}

struct ff_read_pool *ff_read_pool_new(struct ff_fuse *ff, unsigned threads)
{
	struct ff_read_pool *p = calloc(1, sizeof(*p));
	struct ff_pool_cfg cfg = {.threads = threads > MAX_WORKERS ? MAX_WORKERS : threads,
				  .queue = QUEUE, .job_size = sizeof(struct job),
				  .run = run_job, .user = p};

	if (!p || !threads)
		goto fail;
	p->ff = ff;
	p->pool = ff_pool_new(&cfg, NULL);
	if (!p->pool)
		goto fail;
	return p;
fail:
	free(p);
	return NULL;
}

int ff_read_pool_submit(struct ff_read_pool *p, fuse_req_t req, uint64_t handle, size_t size,
			uint64_t off)
{
	struct job j = {req, handle, size, off};

	return ff_pool_try_submit(p->pool, &j) < 0 ? -EAGAIN : 0;
}

void ff_read_pool_free(struct ff_read_pool *p)
{
	if (!p)
		return;
	/* the workers still answer what is queued */
	ff_pool_free(p->pool);
	free(p);
}
