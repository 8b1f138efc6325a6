/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Pass 2, the file contents: each file split into jobs that worker
 * threads decompress and write (zero runs left as holes), and a thread that
 * streams the image into the page cache ahead of them. */
#include "extract/ex_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/pool.h"
#include "extract/extract_safe.h"

static void process(struct ex *ex, struct job *j, uint8_t *buf);
static void enqueue(struct ex *ex, struct job *j);

void ff_ex_queue_file(struct ex *ex, struct file *f)
{
	uint64_t n = f->st.size ? (f->st.size + SPLIT - 1) / SPLIT : 1, i;

	if (n >= INT32_MAX) /* too many to count: one job does it all */
		n = 1;
	atomic_init(&f->pending, (int)n);
	atomic_init(&f->failed, 0);
	atomic_init(&f->tail_hole, 0);
	for (i = 0; i < n; i++) {
		struct job j = {f, i * SPLIT, i + 1 < n ? (i + 1) * SPLIT : f->st.size};

		enqueue(ex, &j);
	}
}

void ff_ex_file_free(struct file *f)
{
	if (f) {
		ff_ex_dirref_put(f->dir);
		free(f->name);
		free(f->rel);
	}
	free(f);
}

/* ---- pass 2: file contents ---- */

/* pwrite until done: a short write (the disk filling up) is retried, so
 * the error reported is the call's own errno, never a stale one. */
static int write_at(int fd, const uint8_t *p, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Writes bytes [j->off, j->end) of the file, leaving zero runs as holes. */
static int fill(struct ex *ex, const struct job *j, uint8_t *buf)
{
	struct file *f = j->f;
	uint64_t off = j->off;

	while (off < j->end) {
		size_t want = j->end - off < CHUNK ? (size_t)(j->end - off) : CHUNK;
		ssize_t n = ex->fs->ops->read(ex->fs, f->handle, buf, want, off);

		if (n <= 0) {
			ff_ex_fail(ex, f->rel, "reading at %llu: %s", (unsigned long long)off,
			     n < 0 ? strerror((int)-n) : "file shorter than its size");
			return -1;
		}
		if (!ff_is_zero(buf, (size_t)n)) {
			int r = write_at(f->fd, buf, (size_t)n, off);

			if (r < 0) {
				/* several jobs of one file may fail: one message */
				if (!atomic_exchange(&f->failed, 1))
					ff_ex_fail_sys(ex, f->rel, "write", -r);
				return -1;
			}
		} else if (off + (uint64_t)n == f->st.size) {
			atomic_store(&f->tail_hole, 1);
		}
		off += (uint64_t)n;
	}
	return 0;
}

static void finish_file(struct ex *ex, struct file *f)
{
	int ok = !atomic_load(&f->failed);

	if (ok && atomic_load(&f->tail_hole) && ftruncate(f->fd, (off_t)f->st.size) < 0) {
		ff_ex_fail_sys(ex, f->rel, "truncate", errno);
		ok = 0;
	}
	if (!ok)
		unlinkat(ex->root, f->rel, 0); /* no partial files */
	else
		ff_ex_meta_fd(ex, f->rel, f->handle, &f->st, f->fd);
	close(f->fd);
	ff_ex_progress(ex, f->st.size);
	ff_ex_file_free(f);
}

/* Creates a file make_file left to the worker (its only job); when that
 * fails (reported), the file is dropped. */
static int create_later(struct ex *ex, struct file *f)
{
	struct dst d = {f->dir->fd, f->name, f->rel, NULL, NULL};

	f->fd = ff_ex_create_fd(ex, &d, f->mode);
	ff_ex_dirref_put(f->dir);
	f->dir = NULL;
	if (f->fd >= 0)
		return 0;
	ff_ex_progress(ex, f->st.size);
	ff_ex_file_free(f);
	return -1;
}

/* buf NULL: no buffer could be had, the job fails. */
static void process(struct ex *ex, struct job *j, uint8_t *buf)
{
	struct file *f = j->f;

	if (f->fd < 0 && create_later(ex, f) < 0)
		return;
	if (!buf)
		ff_ex_fail(ex, f->rel, "out of memory");
	if (!buf || ff_ex_stopped(ex) || (!atomic_load(&f->failed) && fill(ex, j, buf) < 0))
		atomic_store(&f->failed, 1);
	if (atomic_fetch_sub(&f->pending, 1) == 1)
		finish_file(ex, f);
}

/* When the queue is full the walker does the oldest job itself rather than
 * sleep, so it is one more decompressing thread while it has nothing else
 * to do. */
static void enqueue(struct ex *ex, struct job *j)
{
	if (!ex->pool) {
		process(ex, j, ex->inline_buf);
		return;
	}
	while (ff_pool_try_submit(ex->pool, j) < 0)
		ff_pool_help(ex->pool);
}

static void run_job(void *user, void *job, unsigned worker)
{
	struct ex *ex = user;

	if (worker == ff_pool_threads(ex->pool)) { /* the walker helping */
		process(ex, job, ex->inline_buf);
		return;
	}
	if (!ex->bufs[worker])
		ex->bufs[worker] = malloc(CHUNK); /* process() reports NULL */
	process(ex, job, ex->bufs[worker]);
}

/* No pool with -j 1, or when no thread starts: the walker does it all. */
void ff_ex_start_workers(struct ex *ex)
{
	struct ff_pool_cfg cfg = {.threads = (unsigned)ex->o->jobs, .queue = QUEUE,
				  .job_size = sizeof(struct job), .run = run_job, .user = ex};

	if (ex->o->jobs > 1)
		ex->pool = ff_pool_new(&cfg, NULL);
}

void ff_ex_stop_workers(struct ex *ex)
{
	if (!ex->pool)
		return;
	while (ff_pool_help(ex->pool)) /* help finish the queue */
		;
	ff_pool_free(ex->pool);
	ex->pool = NULL;
}

static void prefetch_run(void *arg, void *job, unsigned worker)
{
	struct prefetch *p = arg;

	(void)job;
	(void)worker;
	for (uint64_t off = 0; off < p->src->size && !atomic_load(&p->stop); off += PREFETCH_STEP)
		ff_bsrc_advise(p->src, off, PREFETCH_STEP, POSIX_FADV_WILLNEED);
}

void ff_ex_prefetch_start(struct prefetch *p, struct ff_bsrc *src)
{
	atomic_init(&p->stop, 0);
	p->task = NULL;
	p->src = src;
	if (src && src->fd >= 0)
		p->task = ff_pool_task(prefetch_run, p, NULL); /* only a hint */
}

void ff_ex_prefetch_stop(struct prefetch *p)
{
	atomic_store(&p->stop, 1);
	ff_pool_free(p->task);
}
