/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Read-ahead of file contents: a helper thread walks the files in data
 * order a bounded distance ahead of the writer and asks the kernel to start
 * reading each one (posix_fadvise WILLNEED).  With a cold page cache the
 * writer would otherwise wait for the disk file after file (inode, then
 * data) while the compressors idle; with the hint the disk works ahead of
 * it.  Only a hint: it never reads data itself, its failures are ignored,
 * and the image does not depend on it. */
#include "squashfs/readahead.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/pool.h"

#define AHEAD_MAX (64ull << 20) /* page cache asked for beyond the writer */
#define HINT_MIN 4096           /* files up to this size are not hinted */

struct sqfs_readahead {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ff_pool *helper; /* the background task running helper() */
	const struct sqfs_file_list *files;
	uint64_t done;        /* bytes the writer has consumed */
	uint64_t wake_at;     /* the sleeping helper wants a signal once done
				 reaches this */
	int waiting;          /* the helper sleeps until done moves */
	int stop;
};

static void hint(const struct ff_node *n)
{
	char buf[4096];
	const char *path;
	int fd;

	/* a file of one page is one read for the writer too: the hint's three
	 * system calls cost more than they start (a million small files) */
	if (n->size <= HINT_MIN || !(path = ff_node_host_path(n, buf, sizeof(buf))))
		return;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
	close(fd);
}

static void helper(void *arg, void *job, unsigned worker)
{
	struct sqfs_readahead *ra = arg;
	struct sqfs_file_cur cur = {0};
	uint64_t ahead = 0;

	(void)job;
	(void)worker;
	for (size_t i = 0; i < ra->files->n; i++) {
		const struct ff_node *n;

		pthread_mutex_lock(&ra->lock);
		while (!ra->stop && ahead > ra->done + AHEAD_MAX) {
			/* sleep until half the window is free: woken per file,
			 * a million small files cost a million thread switches */
			ra->wake_at = ahead - AHEAD_MAX / 2;
			ra->waiting = 1;
			pthread_cond_wait(&ra->cond, &ra->lock);
		}
		ra->waiting = 0;
		if (ra->stop) {
			pthread_mutex_unlock(&ra->lock);
			break;
		}
		pthread_mutex_unlock(&ra->lock);
		n = sqfs_file_at(ra->files, &cur, i);
		hint(n);
		ahead += n->size;
	}
}

struct sqfs_readahead *sqfs_readahead_start(const struct sqfs_file_list *files)
{
	struct sqfs_readahead *ra = calloc(1, sizeof(*ra));

	if (!ra)
		return NULL;
	pthread_mutex_init(&ra->lock, NULL);
	pthread_cond_init(&ra->cond, NULL);
	ra->files = files;
	ra->helper = ff_pool_task(helper, ra, NULL);
	if (!ra->helper) {
		pthread_mutex_destroy(&ra->lock);
		pthread_cond_destroy(&ra->cond);
		free(ra);
		return NULL;
	}
	return ra;
}

void sqfs_readahead_progress(struct sqfs_readahead *ra, uint64_t bytes_done)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->lock);
	ra->done = bytes_done;
	if (ra->waiting && bytes_done >= ra->wake_at)
		pthread_cond_signal(&ra->cond);
	pthread_mutex_unlock(&ra->lock);
}

void sqfs_readahead_stop(struct sqfs_readahead *ra)
{
	if (!ra)
		return;
	ff_pool_stop(ra->helper, &ra->lock, &ra->cond, &ra->stop);
	free(ra);
}
