/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#ifndef FF_FUSE_SPIN_LOOP_H
#define FF_FUSE_SPIN_LOOP_H

#include "fuse/ll.h"

/* Serves requests until unmount or a signal, polling the device for
 * spin_us microseconds after each request before sleeping (0: sleep at
 * once, as libfuse's own loop).  follow_cpu: move the thread to the CPU
 * of the process it serves (follow.h); it then does not spin.  after_init (may be NULL) is called once,
 * in this thread, as soon as the FUSE_INIT reply is written.  Returns 0 or
 * -errno, as fuse_session_loop. */
int ff_fuse_spin_loop(struct fuse_session *se, unsigned spin_us, int follow_cpu,
		      void (*after_init)(void *), void *ctx);

/* The next spin budget in microseconds, at most max_us: doubled (plus a
 * step, so it grows back from 0) after a spin that caught the next
 * request, halved after one that ran out and slept.  A spin that keeps
 * running out means the requester is not getting a CPU (a loaded
 * machine) or thinks between requests; polling then only takes CPU time
 * from it and from the decompression workers. */
unsigned ff_fuse_spin_next(unsigned budget_us, unsigned max_us, int caught);

#endif
