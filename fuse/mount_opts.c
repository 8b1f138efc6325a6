/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Command line of `flashfs mount`.  Our -o options are taken out; FUSE's
 * own options stay in fuse_args for libfuse; options that only mean
 * something to mount(8) or fstab are dropped. */
#include "fuse/mount.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/size.h"

enum { KEY_FOREGROUND, KEY_DEBUG, KEY_SINGLE, KEY_HELP, KEY_VERSION, KEY_OFFSET, KEY_CACHE };

static const struct fuse_opt dash_opts[] = {
	FUSE_OPT_KEY("-f", KEY_FOREGROUND),
	FUSE_OPT_KEY("-d", KEY_DEBUG),
	FUSE_OPT_KEY("debug", KEY_DEBUG),
	FUSE_OPT_KEY("-s", KEY_SINGLE),
	FUSE_OPT_KEY("-h", KEY_HELP),
	FUSE_OPT_KEY("--help", KEY_HELP),
	FUSE_OPT_KEY("-V", KEY_VERSION),
	FUSE_OPT_KEY("--version", KEY_VERSION),
	/* the image options every flashfs command takes, as -o offset=/cache= */
	FUSE_OPT_KEY("--offset=", KEY_OFFSET),
	FUSE_OPT_KEY("--offset ", KEY_OFFSET),
	FUSE_OPT_KEY("--cache-size=", KEY_CACHE),
	FUSE_OPT_KEY("--cache-size ", KEY_CACHE),
	FUSE_OPT_END,
};

struct parse {
	struct ff_mount_opts *o;
	struct ff_err *err;
};

static int set_endian(struct ff_mount_opts *o, const char *v)
{
	if (!strcmp(v, "little") || !strcmp(v, "le"))
		o->open.flash.byte_order = FF_ORDER_LITTLE;
	else if (!strcmp(v, "big") || !strcmp(v, "be"))
		o->open.flash.byte_order = FF_ORDER_BIG;
	else if (!strcmp(v, "auto"))
		o->open.flash.byte_order = FF_ORDER_DETECT;
	else
		return -1;
	return 0;
}

static int set_string(char **slot, const char *v)
{
	char *dup = strdup(v);

	if (!dup)
		return -1;
	free(*slot);
	*slot = dup;
	return 0;
}

/* Numeric options, in common/size.h's syntax: sizes take K/M/G/T
 * suffixes, counts do not; both may be hex, neither is ever octal. */
enum num_id {
	N_CACHE, N_PREFETCH, N_OFFSET, N_MAX_READ, N_READAHEAD, N_UID, N_GID, N_THREADS, N_TIMEOUT,
	N_SPIN, N_FOLLOW, N_PUSH,
	N_PAGE_SIZE, N_OOB_SIZE, N_PAGES_PER_BLOCK, N_PEB_SIZE, N_ERASE_SIZE, N_COUNT
};

static const struct numeric {
	const char *name;
	int is_size;
	uint64_t min, max;
} numerics[N_COUNT] = {
	[N_CACHE] = {"cache", 1, 0, UINT64_MAX},
	[N_PREFETCH] = {"prefetch", 1, 0, UINT64_MAX},
	[N_OFFSET] = {"offset", 1, 0, UINT64_MAX},
	[N_MAX_READ] = {"max_read", 1, 4096, 1u << 30},
	[N_READAHEAD] = {"readahead", 1, 0, 1u << 30},
	[N_UID] = {"uid", 0, 0, UINT32_MAX},
	[N_GID] = {"gid", 0, 0, UINT32_MAX},
	[N_THREADS] = {"threads", 0, 1, 1024},
	[N_TIMEOUT] = {"timeout", 0, 0, UINT_MAX},
	[N_SPIN] = {"spin", 0, 0, 1000000},
	[N_FOLLOW] = {"follow", 0, 0, 1},
	[N_PUSH] = {"push", 0, 0, 64},
	[N_PAGE_SIZE] = {"page_size", 1, 0, UINT32_MAX},
	[N_OOB_SIZE] = {"oob_size", 1, 0, UINT32_MAX},
	[N_PAGES_PER_BLOCK] = {"pages_per_block", 0, 0, UINT32_MAX},
	[N_PEB_SIZE] = {"peb_size", 1, 0, UINT32_MAX},
	[N_ERASE_SIZE] = {"erase_size", 1, 0, UINT32_MAX},
};

static void store_numeric(struct ff_mount_opts *o, enum num_id id, uint64_t n)
{
	switch (id) {
	case N_CACHE: o->open.cache_bytes = n; break;
	case N_PREFETCH: o->open.prefetch_bytes = n; break;
	case N_OFFSET: o->open.offset = n; break;
	case N_MAX_READ: o->max_read = (uint32_t)n; break;
	case N_READAHEAD: o->readahead_kb = (uint32_t)((n + 1023) / 1024); break;
	case N_UID: o->uid = (int64_t)n; break;
	case N_GID: o->gid = (int64_t)n; break;
	case N_THREADS: o->threads = (unsigned)n; break;
	case N_TIMEOUT: o->idle_timeout = (unsigned)n; break;
	case N_SPIN: o->spin_us = (unsigned)n; break;
	case N_FOLLOW: o->follow_cpu = (unsigned)n; break;
	case N_PUSH: o->push = (unsigned)n; break;
	case N_PAGE_SIZE: o->open.flash.page_size = (uint32_t)n; break;
	case N_OOB_SIZE: o->open.flash.oob_size = (uint32_t)n; break;
	case N_PAGES_PER_BLOCK: o->open.flash.pages_per_block = (uint32_t)n; break;
	case N_PEB_SIZE:
	case N_ERASE_SIZE: o->open.flash.erase_size = (uint32_t)n; break;
	case N_COUNT: break;
	}
}

/* Returns 1 if `name` is a numeric option (then *bad says whether v was
 * valid), 0 if not. */
static int numeric_option(struct ff_mount_opts *o, const char *name, const char *v, int *bad)
{
	for (int id = 0; id < N_COUNT; id++) {
		const struct numeric *d = &numerics[id];
		uint64_t n;
		int ret;

		if (strcmp(name, d->name))
			continue;
		ret = d->is_size ? ff_parse_size(v, &n) : ff_parse_uint(v, &n);
		*bad = ret != 0 || n < d->min || n > d->max;
		if (!*bad)
			store_numeric(o, (enum num_id)id, n);
		return 1;
	}
	return 0;
}

/* Returns 1 if `name=v` is one of ours (then *bad says whether v was
 * valid), 0 if it is not ours. */
static int our_option(struct ff_mount_opts *o, const char *name, const char *v, int *bad)
{
	if (numeric_option(o, name, v, bad))
		return 1;
	if (!strcmp(name, "subdir"))
		*bad = set_string(&o->subdir, v) != 0;
	else if (!strcmp(name, "fsname"))
		*bad = set_string(&o->fsname, v) != 0;
	else if (!strcmp(name, "oob_layout"))
		*bad = set_string(&o->owned_layout, v) != 0;
	else if (!strcmp(name, "tags"))
		*bad = set_string(&o->owned_tags, v) != 0;
	else if (!strcmp(name, "volume"))
		*bad = set_string(&o->owned_volume, v) != 0;
	else if (!strcmp(name, "endian"))
		*bad = set_endian(o, v) != 0;
	else
		return 0;
	return 1;
}

/* mount(8) and fstab vocabulary with no meaning for a FUSE file system;
 * `rw` is dropped because the mount is always read-only. */
static int dropped_option(const char *arg)
{
	static const char *const names[] = {"rw", "ro", "defaults", "auto", "noauto", "nofail",
					    "user", "users", "nouser", "owner", "group",
					    "_netdev", "loop", NULL};

	for (const char *const *n = names; *n; n++)
		if (!strcmp(arg, *n))
			return 1;
	return !strncmp(arg, "x-", 2) || !strncmp(arg, "comment=", 8);
}

static int option(struct parse *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char name[32];
	int bad = 0;

	if (dropped_option(arg))
		return 0;
	if (!eq || (size_t)(eq - arg) >= sizeof(name))
		return 1;
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	if (!our_option(p->o, name, eq + 1, &bad))
		return 1;
	if (bad)
		return ff_err_set(p->err, EINVAL, "mount: option '%s': invalid value", arg);
	return 0;
}

/* "--offset=N" or "--offsetN" (libfuse joins a separate value) */
static int dash_option(struct parse *p, const char *arg, const char *flag, const char *name)
{
	const char *v = arg + strlen(flag) + (arg[strlen(flag)] == '=');
	int bad = 0;

	numeric_option(p->o, name, v, &bad);
	if (bad)
		return ff_err_set(p->err, EINVAL, "mount: option %s '%s': invalid value", flag, v);
	return 0;
}

static int positional(struct parse *p, const char *arg)
{
	if (!p->o->image)
		p->o->image = arg;
	else if (!p->o->mountpoint)
		p->o->mountpoint = arg;
	else
		return ff_err_set(p->err, EINVAL, "mount: unexpected argument '%s'", arg);
	return 0;
}

static int proc(void *data, const char *arg, int key, struct fuse_args *outargs)
{
	struct parse *p = data;

	(void)outargs;
	switch (key) {
	case KEY_FOREGROUND:
		p->o->foreground = 1;
		return 0;
	case KEY_DEBUG:
		p->o->debug = p->o->foreground = 1;
		return 1; /* libfuse prints the requests */
	case KEY_SINGLE:
		p->o->threads = 1;
		return 0;
	case KEY_HELP:
		p->o->help = 1;
		return 0;
	case KEY_VERSION:
		p->o->version = 1;
		return 0;
	case KEY_OFFSET:
		return dash_option(p, arg, "--offset", "offset");
	case KEY_CACHE:
		return dash_option(p, arg, "--cache-size", "cache");
	case FUSE_OPT_KEY_NONOPT:
		return positional(p, arg);
	default:
		if (arg[0] == '-')
			return ff_err_set(p->err, EINVAL, "mount: unknown option '%s'", arg);
		return option(p, arg);
	}
}

int ff_mount_opts_parse(struct ff_mount_opts *o, int argc, char **argv, struct ff_err *err)
{
	struct fuse_args in = FUSE_ARGS_INIT(argc, argv);
	struct parse p = {o, err};

	memset(o, 0, sizeof(*o));
	o->uid = o->gid = -1;
	o->open.prefetch_bytes = FF_MOUNT_PREFETCH;
	o->readahead_kb = FF_MOUNT_READAHEAD_KB;
	o->spin_us = FF_MOUNT_SPIN_US;
	o->follow_cpu = FF_MOUNT_FOLLOW;
	o->push = FF_MOUNT_PUSH;
	ff_err_clear(err);
	if (fuse_opt_parse(&in, &p, dash_opts, proc) != 0) {
		if (!err || !err->msg[0])
			ff_err_set(err, EINVAL, "mount: cannot parse the command line");
		fuse_opt_free_args(&in);
		return -1;
	}
	o->fuse_args = in;
	o->open.ubi_volume = o->owned_volume;
	o->open.flash.oob_layout = o->owned_layout;
	o->open.flash.tags = o->owned_tags;
	if (!o->help && !o->version && (!o->image || !o->mountpoint))
		return ff_err_set(err, EINVAL, "mount: need IMAGE and MOUNTPOINT");
	return 0;
}

void ff_mount_opts_free(struct ff_mount_opts *o)
{
	fuse_opt_free_args(&o->fuse_args);
	free(o->subdir);
	free(o->fsname);
	free(o->owned_layout);
	free(o->owned_tags);
	free(o->owned_volume);
	o->subdir = o->fsname = o->owned_layout = o->owned_tags = o->owned_volume = NULL;
	o->open.flash.oob_layout = o->open.flash.tags = NULL;
	o->open.ubi_volume = NULL;
}
