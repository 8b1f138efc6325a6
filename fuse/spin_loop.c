/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The receiving loop: libfuse's fuse_session_loop, except that after each
 * request the thread polls the device for a while before it sleeps.  A
 * metadata walk (find, ls -R, tar's directory pass) sends its next request
 * a few microseconds after our answer; a thread asleep in read() must then
 * be woken, on a virtual machine by an interrupt to another CPU, and that
 * wake-up costs more than answering.  Polling stops after `spin_us`, so an
 * idle mount costs nothing. */
#include "fuse/spin_loop.h"

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

/* Waits until the device has a request; 0, or -errno. */
static int wait_request(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, -1) < 0)
		return errno == EINTR ? 0 : -errno;
	return 0;
}

int ff_fuse_spin_loop(struct fuse_session *se, unsigned spin_us, void (*after_init)(void *),
		      void *ctx)
{
	int fd = fuse_session_fd(se), flags = fcntl(fd, F_GETFL), ret = 0;
	struct fuse_buf buf = { 0 };
	long long idle_since = now_us();

	/* Without spinning the reads block, as in libfuse's own loop. */
	if (spin_us && (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0))
		spin_us = 0;
	while (!fuse_session_exited(se)) {
		int res = fuse_session_receive_buf(se, &buf);

		if (res == -EAGAIN) {
			if (now_us() - idle_since > spin_us && (ret = wait_request(fd)))
				break;
			continue;
		}
		if (res == -EINTR)
			continue;
		if (res <= 0) {
			ret = res;
			break;
		}
		fuse_session_process_buf(se, &buf);
		/* The first request is FUSE_INIT; the kernel applies our
		 * reply while we write it, so it is in force now. */
		if (after_init) {
			after_init(ctx);
			after_init = NULL;
		}
		idle_since = now_us();
	}
	free(buf.mem);
	fuse_session_reset(se);
	return ret < 0 ? ret : 0;
}
