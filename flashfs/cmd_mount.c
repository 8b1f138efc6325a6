/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs mount [-o OPTIONS] IMAGE MOUNTPOINT: the thin main of the FUSE
 * mounter.  Every error that can happen before the mount exists is
 * printed here with exit status 2; only then does the process detach. */
#include <flashfs/version.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include "flashfs/cli.h"
#include "flashfs/commands.h"
#include "image/image.h"
#include "fuse/ll.h"
#include "fuse/mount.h"

struct log_ctx {
	const char *image;
	int use_syslog; /* set once, before the request threads start */
};

static void log_text(const struct log_ctx *lc, const char *msg)
{
	if (lc->use_syslog)
		syslog(LOG_ERR, "%s: %s", lc->image, msg);
	else
		fprintf(stderr, "flashfs: %s: %s\n", lc->image, msg);
}

/* libfuse's own messages, once stderr is /dev/null. */
static void fuse_to_syslog(enum fuse_log_level level, const char *fmt, va_list ap)
{
	vsyslog((int)level, fmt, ap);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: flashfs mount [-f] [-d] [-s] [-o OPT[,OPT...]] IMAGE MOUNTPOINT\n"
		"Mount an image of any format flashfs reads (`flashfs formats`), or one in a UBI\n"
		"volume or inside a firmware blob (-o offset=N), format detected,\n"
		"read-only with FUSE.\n"
		"IMAGE may be a file or a block device.\n"
		"Unmount with: fusermount3 -u MOUNTPOINT\n\n"
		"  -f  stay in the foreground    -d  debug (implies -f)    -s  single thread\n\n"
		"options (-o):\n"
		"  offset=N          image starts N bytes into the file (also --offset N)\n"
		"  subdir=PATH       mount only this directory of the image\n"
		"  uid=N, gid=N      show every file as owned by N\n"
		"  cache=SIZE        reader cache budget, K/M/G suffixes (also --cache-size N)\n"
		"  threads=N         workers for reads that wait for decompression\n"
		"                    (1 = everything in one thread)\n"
		"  prefetch=SIZE     decode ahead of sequential tree walks (default 8M, 0 = off)\n"
		"  timeout=SECONDS   unmount after SECONDS without requests\n"
		"  spin=MICROSECONDS poll for the next request this long before sleeping\n"
		"                    (default 200, 0 = always sleep)\n"
		"  follow=0|1        serve each reader from its own CPU (default 1)\n"
		"  push=N            after a read, store the next N small files of its\n"
		"                    directory in the page cache (default 32, 0 = off)\n"
		"  page_size=, oob_size=, pages_per_block=, oob_layout=linux|offset0|inband,\n"
		"  tags=kernel|classic, endian=little|big   YAFFS2 geometry if not detected\n"
		"                    (page_size=, oob_size= also for a raw NAND dump of UBI)\n"
		"  volume=NAME|ID    UBI image: the volume to mount (default: the only one,\n"
		"                    or the one named rootfs); peb_size=N if not detected\n"
		"  allow_other and other FUSE mount options are passed through; the mount is\n"
		"  always ro,default_permissions.\n\n"
		"Exit status: 0 unmounted cleanly, 1 serving failed, 2 usage or fatal error.\n");
}

/* Absolute paths: the daemon changes to / after detaching. */
static char *absolute(const char *path, int want_dir)
{
	struct stat st;
	char *abs = realpath(path, NULL);

	if (!abs) {
		fprintf(stderr, "flashfs mount: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (want_dir && (stat(abs, &st) != 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "flashfs mount: %s: not a directory\n", path);
		free(abs);
		return NULL;
	}
	return abs;
}

static int serve(struct ff_mount_opts *o, struct ff_fs *fs, struct log_ctx *lc)
{
	struct ff_fuse_session *s;
	struct ff_err err;
	int ret = 0;

	if (ff_fuse_mount(&s, fs, o, &err) < 0) {
		fprintf(stderr, "flashfs mount: %s: %s\n", o->image, err.msg);
		return 2;
	}
	if (fuse_set_signal_handlers(ff_fuse_session_se(s)) != 0 ||
	    fuse_daemonize(o->foreground) != 0) {
		ff_fuse_unmount(s);
		fprintf(stderr, "flashfs mount: cannot set up the daemon\n");
		return 2;
	}
	if (!o->foreground) {
		openlog("flashfs", LOG_PID, LOG_DAEMON);
		fuse_set_log_func(fuse_to_syslog);
		lc->use_syslog = 1;
	}
	if (ff_fuse_loop(s, &err) < 0) {
		log_text(lc, err.msg);
		ret = 1;
	}
	fuse_remove_signal_handlers(ff_fuse_session_se(s));
	ff_fuse_unmount(s);
	return ret;
}

static void log_line(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	log_text(ctx, ff_warning_text(w, line, sizeof(line)));
}

static int run(struct ff_mount_opts *o)
{
	struct log_ctx lc = {o->image, 0};
	struct ff_fs *fs;
	struct ff_err err;
	int ret;

	o->open.log = log_line;
	o->open.log_ctx = &lc;
	if (ff_image_open(o->image, &o->open, &fs, &err) < 0) {
		ff_cli_open_error("mount", o->image, &o->open, &err, "-o offset=");
		return 2;
	}
	ret = serve(o, fs, &lc);
	ff_fs_close(fs);
	return ret;
}

static int cmd_mount(int argc, char **argv)
{
	struct ff_mount_opts o;
	struct ff_err err;
	char *image = NULL, *mnt = NULL;
	int ret = 2;

	if (ff_mount_opts_parse(&o, argc, argv, &err) < 0) {
		fprintf(stderr, "flashfs %s\n", err.msg);
		usage(stderr);
	} else if (o.help) {
		usage(stdout);
		ret = 0;
	} else if (o.version) {
		printf("flashfs mount (flashfs-tools) " FF_VERSION_STRING ", libfuse %d\n", fuse_version());
		ret = 0;
	} else if ((image = absolute(o.image, 0)) && (mnt = absolute(o.mountpoint, 1))) {
		o.image = image;
		o.mountpoint = mnt;
		ret = run(&o);
	}
	free(image);
	free(mnt);
	ff_mount_opts_free(&o);
	return ret;
}

const struct ff_command ff_command_mount = {"mount", cmd_mount,
	"mount an image with FUSE"};
