/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The receiving loop: libfuse's fuse_session_loop, except that after each
 * request the thread polls the device for a while before it sleeps.  A
 * metadata walk (find, ls -R, tar's directory pass) sends its next request
 * a few microseconds after our answer; a thread asleep in read() must then
 * be woken, on a virtual machine by an interrupt to another CPU, and that
 * wake-up costs more than answering.  Polling stops after the budget, so
 * an idle mount costs nothing.
 *
 * The budget adapts (ff_fuse_spin_next): on a 2-CPU machine the poller
 * competes with the reader and the decompression workers, and a perf
 * profile of a cold random-order read of minbase had 60 % of the
 * daemon's CPU time in polling read()s that ended in EAGAIN (3.5 s of
 * CPU against 1.6 s with spin=0), because most spins ran out: each read
 * waited on the disk, or the reader was waiting for a CPU.  Halving the
 * budget on every spin that runs out stops that within a few requests;
 * a request already queued when the answer is written still counts as
 * caught, so the budget grows back when requests come quickly again. */
#include "fuse/spin_loop.h"

#include "fuse/follow.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Waits until the device has a request; 0, or -errno.  A thread that
 * follows its requester's CPU lets go of it after RELEASE_MS without one. */
#define RELEASE_MS 100
static int wait_request(int fd, struct ff_follow *follow)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	if (ff_follow_pinned(follow)) {
		n = poll(&p, 1, RELEASE_MS);
		if (n != 0)
			return n < 0 && errno != EINTR ? -errno : 0;
		ff_follow_release(follow);
	}
	if (poll(&p, 1, -1) < 0)
		return errno == EINTR ? 0 : -errno;
	return 0;
}

int ff_fuse_spin_loop(struct fuse_session *se, unsigned spin_us, int follow_cpu,
		      void (*after_init)(void *), void *ctx)
{
	struct ff_follow follow;
	int fd = fuse_session_fd(se), flags = fcntl(fd, F_GETFL), ret = 0;
	struct fuse_buf buf = { 0 };
	long long idle_since = now_us();
	unsigned budget = spin_us;
	int slept = 1; /* since the last answer; FUSE_INIT is not a catch */

	ff_follow_init(&follow, follow_cpu);
	/* Without spinning the reads block, as in libfuse's own loop. */
	if (spin_us && (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0))
		spin_us = 0;
	while (!fuse_session_exited(se)) {
		int res = fuse_session_receive_buf(se, &buf);

		if (res == -EAGAIN) {
			/* on the requester's CPU, polling only delays it */
			if (ff_follow_pinned(&follow) || now_us() - idle_since > budget) {
				if (!slept)
					budget = ff_fuse_spin_next(budget, spin_us, 0);
				slept = 1;
				if ((ret = wait_request(fd, &follow)))
					break;
			}
			continue;
		}
		if (res == -EINTR)
			continue;
		if (res <= 0) {
			ret = res;
			break;
		}
		if (!slept)
			budget = ff_fuse_spin_next(budget, spin_us, 1);
		slept = 0;
		if (!(buf.flags & FUSE_BUF_IS_FD))
			ff_follow_request(&follow, buf.mem, (size_t)res);
		fuse_session_process_buf(se, &buf);
		/* The first request is FUSE_INIT; the kernel applies our
		 * reply while we write it, so it is in force now. */
		if (after_init) {
			after_init(ctx);
			after_init = NULL;
		}
		idle_since = now_us();
	}
	ff_follow_release(&follow);
	free(buf.mem);
	fuse_session_reset(se);
	return ret < 0 ? ret : 0;
}

unsigned ff_fuse_spin_next(unsigned budget_us, unsigned max_us, int caught)
{
	unsigned next = caught ? 2 * budget_us + 8 : budget_us / 2;

	if (caught && budget_us >= max_us / 2)
		next = max_us;
	return next < max_us ? next : max_us;
}
