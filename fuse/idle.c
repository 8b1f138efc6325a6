/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "fuse/idle.h"

#include <errno.h>
#include <spawn.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* A plain (not lazy) unmount, so a mount still in use stays.  Root calls
 * umount2 itself; anyone else goes through the setuid fusermount3. */
static int try_unmount(const char *mountpoint)
{
	char *argv[] = {"fusermount3", "-u", "-q", (char *)mountpoint, NULL};
	pid_t pid;
	int status;

	if (geteuid() == 0)
		return umount2(mountpoint, UMOUNT_NOFOLLOW);
	if (posix_spawnp(&pid, "fusermount3", NULL, NULL, argv, environ) != 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void watch(void *arg, void *job, unsigned worker)
{
	struct ff_idle *w = arg;
	struct timespec ts;

	(void)job;
	(void)worker;
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += 1;
		pthread_cond_timedwait(&w->wake, &w->lock, &ts);
		if (w->stop)
			break;
		if (ff_fuse_now() - atomic_load(&w->ff->last_active) < (long long)w->timeout)
			continue;
		pthread_mutex_unlock(&w->lock);
		if (try_unmount(w->mountpoint) == 0)
			return; /* the session loop now ends by itself */
		atomic_store(&w->ff->last_active, ff_fuse_now());
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
}

int ff_idle_start(struct ff_idle *w, struct ff_fuse *ff, const char *mountpoint,
		  unsigned timeout)
{
	pthread_condattr_t ca;
	struct ff_err err = {0};

	memset(w, 0, sizeof(*w));
	w->ff = ff;
	w->mountpoint = mountpoint;
	w->timeout = timeout;
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &ca);
	pthread_condattr_destroy(&ca);
	atomic_store(&ff->last_active, ff_fuse_now());
	w->task = ff_pool_task(watch, w, &err);
	w->started = w->task != NULL;
	if (!w->started) {
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
	}
	return w->started ? 0 : err.code ? err.code : EAGAIN;
}

void ff_idle_stop(struct ff_idle *w)
{
	if (!w->started)
		return;
	ff_pool_stop(w->task, &w->lock, &w->wake, &w->stop);
	w->started = 0;
}
