/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* follow=: the receiving thread runs on the CPU of the process it serves. */
#ifndef FF_FUSE_FOLLOW_H
#define FF_FUSE_FOLLOW_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

struct ff_follow {
	int on;
	cpu_set_t allowed; /* the thread's own mask, restored when idle */
	pid_t pid;         /* the latest requester */
	unsigned seen;     /* its requests since the last check */
	int cpu;           /* the CPU we are pinned to, -1 none */
};

/* Starts following (on = 0: every call below does nothing). */
void ff_follow_init(struct ff_follow *f, int on);
/* A request arrived; `hdr` is its raw message (struct fuse_in_header
 * first).  Now and then moves the calling thread to the requester's CPU. */
void ff_follow_request(struct ff_follow *f, const void *hdr, size_t len);
/* The mount went idle: no CPU is kept. */
void ff_follow_release(struct ff_follow *f);
/* True while the thread shares a CPU with its requester. */
static inline int ff_follow_pinned(const struct ff_follow *f)
{
	return f->cpu >= 0;
}
/* The CPU a thread last ran on, from /proc/PID/stat; -1 if unknown. */
int ff_follow_task_cpu(pid_t pid);

#endif
