/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs mount`: its options, and a FUSE session serving one opened image.
 *
 *   ff_mount_opts_parse -> ff_image_open -> ff_fuse_mount -> (daemonize)
 *   -> ff_fuse_loop -> ff_fuse_unmount
 *
 * The steps are separate so that the command can report every error
 * before it detaches from the terminal, and so that a test can serve an
 * in-memory ff_fs from a thread. */
#ifndef FF_FUSE_MOUNT_H
#define FF_FUSE_MOUNT_H

#include <fuse_opt.h>
#include <stdint.h>

#include "common/error.h"
#include "common/fs.h"

/* Default prefetch=: decoded data prepared ahead of a tree walk. */
#define FF_MOUNT_PREFETCH (8u << 20)
/* Default readahead= (KiB): the kernel's 128 KiB makes a tree walk ask
 * for medium-sized files in several READs; 1 MiB cuts their number by a
 * sixth.  Only root can set it; otherwise the kernel's stays. */
#define FF_MOUNT_READAHEAD_KB 1024u

/* Default spin= (microseconds): a tree walk's next request follows our
 * answer within tens of microseconds, so polling that long saves waking a
 * sleeping thread for nearly every request (fuse/spin_loop.c). */
#define FF_MOUNT_SPIN_US 200u

/* Default follow=: the receiving thread runs on its requester's CPU
 * (fuse/follow.c), which saves a wake-up across CPUs on every request. */
#define FF_MOUNT_FOLLOW 1u

/* Default push=: small files (up to FF_MOUNT_PUSH_MAX bytes) stored into
 * the page cache after each read, ahead of a tree walk (fuse/push.c). */
#define FF_MOUNT_PUSH 32u
#define FF_MOUNT_PUSH_MAX (128u << 10)

struct ff_mount_opts {
	const char *image;      /* positional arguments, as given */
	const char *mountpoint;
	struct ff_open_opts open; /* -o page_size=... fill open.flash */
	char *subdir;           /* subdir=PATH, NULL = whole image */
	int64_t uid, gid;       /* -1 = as stored */
	unsigned threads;       /* read pool workers; 0 = 2 per CPU, 1 = none */
	unsigned idle_timeout;  /* timeout=SECONDS, 0 = never */
	uint32_t max_read;      /* max_read=BYTES, 0 = the kernel's limit */
	uint32_t readahead_kb;  /* readahead=SIZE (KiB), 0 = leave the kernel's */
	unsigned spin_us;       /* spin=MICROSECONDS of polling after a request */
	unsigned follow_cpu;    /* follow=0|1: serve on the requester's CPU */
	unsigned push;          /* push=FILES after each read, 0 = off */
	int foreground, debug, help, version;
	char *fsname;           /* source shown in /proc/mounts; NULL = image */
	/* Options handed to libfuse unchanged (allow_other, nosuid, -d ...);
	 * argv[0] is the program name. */
	struct fuse_args fuse_args;
	char *owned_volume, *owned_layout, *owned_tags;
};

/* argv[0] is the command name; accepts `[-o OPT[,OPT...]] [-f] [-d] [-s]
 * IMAGE MOUNTPOINT` in any order.  Returns 0 or -1 with err set (a usage
 * error).  Always pair with ff_mount_opts_free. */
int ff_mount_opts_parse(struct ff_mount_opts *o, int argc, char **argv, struct ff_err *err);
void ff_mount_opts_free(struct ff_mount_opts *o);

struct ff_fuse_session;
struct fuse_session;

/* Resolve subdir=, create the session and mount it (not yet serving).
 * fs stays owned by the caller and must outlive the session. */
int ff_fuse_mount(struct ff_fuse_session **out, struct ff_fs *fs, const struct ff_mount_opts *o,
		  struct ff_err *err);

/* Serve requests until the file system is unmounted (fusermount3 -u, the
 * idle timeout, or fuse_session_exit from a signal handler). */
int ff_fuse_loop(struct ff_fuse_session *s, struct ff_err *err);

/* Unmount if still mounted, and free the session. */
void ff_fuse_unmount(struct ff_fuse_session *s);

/* Set the kernel's read-ahead window of the mount at `mountpoint` (root
 * only: sysfs).  Touches only /proc/self/mountinfo and sysfs, never the
 * mount itself (that would hold it and make an unmount fail with EBUSY).
 * Returns 0 or -errno. */
int ff_fuse_set_readahead(const char *mountpoint, unsigned kb);

/* For fuse_set_signal_handlers() in the command. */
struct fuse_session *ff_fuse_session_se(struct ff_fuse_session *s);

#endif
