/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* One FUSE session serving one opened image. */
#include "fuse/mount.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/pool.h"
#include "fuse/idle.h"
#include "fuse/ll.h"
#include "fuse/push.h"
#include "fuse/read_pool.h"
#include "fuse/spin_loop.h"

struct ff_fuse_session {
	struct ff_fuse ctx;
	struct fuse_session *se;
	struct fuse_args args;
	char *mountpoint;
	unsigned threads, idle_timeout, readahead_kb, spin_us, follow_cpu, push;
	int mounted;
};

static int mount_root(struct ff_fs *fs, const char *subdir, uint64_t *root, struct ff_err *err)
{
	struct ff_stat st;
	int ret;

	if (!subdir) {
		*root = fs->ops->root(fs);
		return 0;
	}
	ret = ff_fs_resolve(fs, subdir, root);
	if (ret == 0)
		ret = fs->ops->getattr(fs, *root, &st);
	if (ret < 0)
		return ff_err_sys(err, -ret, "subdir=%s", subdir);
	if (!S_ISDIR(st.mode))
		return ff_err_set(err, ENOTDIR, "subdir=%s: not a directory", subdir);
	return 0;
}

/* fsname is a comma-separated option value: escape ',' and '\'. */
static int add_fsname(struct fuse_args *args, const char *name)
{
	size_t len = strlen(name);
	char *opt = malloc(2 * len + sizeof("fsname="));
	char *p;
	int ret;

	if (!opt)
		return -1;
	p = opt + sprintf(opt, "fsname=");
	for (; *name; name++) {
		if (*name == ',' || *name == '\\')
			*p++ = '\\';
		*p++ = *name;
	}
	*p = '\0';
	ret = fuse_opt_add_arg(args, "-o") || fuse_opt_add_arg(args, opt);
	free(opt);
	return ret ? -1 : 0;
}

/* Ours first, so that explicit user options given later win. */
static int build_args(struct ff_fuse_session *s, const struct ff_mount_opts *o)
{
	const struct fuse_args *in = &o->fuse_args;

	if (fuse_opt_add_arg(&s->args, in->argc ? in->argv[0] : "flashfs") ||
	    fuse_opt_add_arg(&s->args, "-o") ||
	    fuse_opt_add_arg(&s->args, "ro,default_permissions,subtype=flashfs") ||
	    add_fsname(&s->args, o->fsname ? o->fsname : o->image))
		return -1;
	if (o->max_read) {
		char opt[40];

		snprintf(opt, sizeof(opt), "max_read=%u", (unsigned)o->max_read);
		if (fuse_opt_add_arg(&s->args, "-o") || fuse_opt_add_arg(&s->args, opt))
			return -1;
	}
	for (int i = 1; i < in->argc; i++)
		if (fuse_opt_add_arg(&s->args, in->argv[i]))
			return -1;
	return 0;
}

static int start_session(struct ff_fuse_session *s, const struct ff_mount_opts *o,
			 struct ff_err *err)
{
	struct fuse_lowlevel_ops ops;

	if (build_args(s, o))
		return ff_err_set(err, ENOMEM, "out of memory");
	ff_fuse_ops(&ops);
	s->se = fuse_session_new(&s->args, &ops, sizeof(ops), &s->ctx);
	if (!s->se)
		return ff_err_set(err, EINVAL, "FUSE rejected the options (see above)");
	if (fuse_session_mount(s->se, s->mountpoint) != 0)
		return ff_err_set(err, EIO, "%s: cannot mount (see above)", s->mountpoint);
	s->mounted = 1;
	return 0;
}

int ff_fuse_mount(struct ff_fuse_session **out, struct ff_fs *fs, const struct ff_mount_opts *o,
		  struct ff_err *err)
{
	struct ff_fuse_session *s;
	uint64_t root;

	*out = NULL;
	if (mount_root(fs, o->subdir, &root, err) < 0)
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->mountpoint = strdup(o->mountpoint))) {
		free(s);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	ff_fuse_init_ctx(&s->ctx, fs, root, o->uid, o->gid);
	s->ctx.max_read = o->max_read;
	s->threads = o->threads;
	s->idle_timeout = o->idle_timeout;
	s->readahead_kb = o->readahead_kb;
	s->spin_us = o->spin_us;
	s->follow_cpu = o->follow_cpu;
	s->push = o->push;
	if (start_session(s, o, err) < 0) {
		ff_fuse_unmount(s);
		return -1;
	}
	*out = s;
	return 0;
}

/* One thread receives requests and answers them; reads that must wait
 * for decompression go to the read pool (threads=N workers; -s or
 * threads=1: none, everything inline). */
static unsigned pool_threads(unsigned threads)
{
	unsigned cpus = ff_online_cpus();

	if (threads)
		return threads > 1 ? threads : 0;
	return cpus > 1 ? 2 * (cpus < 8 ? cpus : 8) : 2;
}

/* FUSE_INIT lowers the read-ahead window to what the kernel proposed, so
 * it is raised once INIT is answered, by the receiving thread itself.  It
 * once was a thread that stat()ed the mount point to wait for INIT: a
 * `fusermount3 -u` meeting that stat in flight failed with EBUSY (issue
 * 20).  Nothing of ours may hold a reference to the mount.  Best effort;
 * without root the kernel's window stays. */
static void apply_readahead(void *arg)
{
	struct ff_fuse_session *s = arg;

	ff_fuse_set_readahead(s->mountpoint, s->readahead_kb);
}

static int run_loop(struct ff_fuse_session *s)
{
	unsigned n = pool_threads(s->threads);
	int ret;

	if (n)
		s->ctx.pool = ff_read_pool_new(&s->ctx, n);
	s->ctx.se = s->se;
	/* with threads=1 (everything on one thread) nothing is pushed */
	if (s->ctx.pool && s->push) {
		s->ctx.push = ff_push_new(s->push, FF_MOUNT_PUSH_MAX);
		if (s->ctx.push && ff_push_start(s->ctx.push, ff_fuse_store, &s->ctx) < 0) {
			ff_push_free(s->ctx.push);
			s->ctx.push = NULL;
		}
	}
	s->ctx.dev_fd = fuse_session_fd(s->se);
	ret = ff_fuse_spin_loop(s->se, s->spin_us, (int)s->follow_cpu,
				s->readahead_kb ? apply_readahead : NULL, s);
	/* The read pool first: a push waiting for a page that a queued READ
	 * holds (push.c) goes on once that READ is answered. */
	ff_read_pool_free(s->ctx.pool);
	s->ctx.pool = NULL;
	ff_push_free(s->ctx.push);
	s->ctx.push = NULL;
	return ret;
}

int ff_fuse_loop(struct ff_fuse_session *s, struct ff_err *err)
{
	struct ff_idle idle = {0};
	int ret;

	if (s->idle_timeout) {
		ret = ff_idle_start(&idle, &s->ctx, s->mountpoint, s->idle_timeout);
		if (ret)
			return ff_err_sys(err, ret, "timeout=%u: cannot start the watchdog",
					  s->idle_timeout);
	}
	ret = run_loop(s);
	ff_idle_stop(&idle);
	/* > 0: a signal ended the loop, a normal way to stop */
	if (ret < 0)
		return ff_err_sys(err, -ret, "%s: serving requests failed", s->mountpoint);
	return 0;
}

void ff_fuse_unmount(struct ff_fuse_session *s)
{
	if (!s)
		return;
	if (s->se) {
		if (s->mounted)
			fuse_session_unmount(s->se);
		fuse_session_destroy(s->se);
	}
	fuse_opt_free_args(&s->args);
	free(s->mountpoint);
	free(s);
}

struct fuse_session *ff_fuse_session_se(struct ff_fuse_session *s)
{
	return s->se;
}
