/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* timeout=SECONDS: a watchdog thread that unmounts the file system once no
 * request has arrived for that long.  A busy mount (open files, a shell
 * inside) refuses the unmount; the watchdog then waits another period. */
#ifndef FF_FUSE_IDLE_H
#define FF_FUSE_IDLE_H

#include <pthread.h>

#include "common/pool.h"
#include "fuse/ll.h"

struct ff_idle {
	struct ff_pool *task; /* runs the watch */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop, started;
	unsigned timeout;
	struct ff_fuse *ff;
	const char *mountpoint; /* absolute */
};

/* Returns 0 or a positive errno. */
int ff_idle_start(struct ff_idle *w, struct ff_fuse *ff, const char *mountpoint,
		  unsigned timeout);
/* Safe on a watchdog that was never started. */
void ff_idle_stop(struct ff_idle *w);

#endif
