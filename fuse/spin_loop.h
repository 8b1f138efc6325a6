#ifndef FF_FUSE_SPIN_LOOP_H
#define FF_FUSE_SPIN_LOOP_H

#include "fuse/ll.h"

/* Serves requests until unmount or a signal, polling the device for
 * spin_us microseconds after each request before sleeping (0: libfuse's
 * own loop).  Returns 0 or -errno, as fuse_session_loop. */
int ff_fuse_spin_loop(struct fuse_session *se, unsigned spin_us);

#endif
