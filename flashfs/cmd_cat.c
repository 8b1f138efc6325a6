/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs cat IMAGE PATH... */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flashfs/cli.h"
#include "flashfs/commands.h"

#define CHUNK (256u * 1024u)

static void usage(FILE *f)
{
	fprintf(f, "usage: flashfs cat [OPTIONS] IMAGE PATH...\n\n"
		   "Write the contents of files in the image to standard output.  Symlinks\n"
		   "are followed inside the image (an absolute target starts at its root).\n\n"
		   FF_CLI_HELP
		   "  --no-follow      refuse a PATH that is a symlink instead of following it\n"
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 ok, 1 some file could not be read, 2 usage error or unreadable image.\n");
}

static int write_all(const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(1, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* What a PATH that is no regular file is, for the message. */
static const char *not_regular(uint32_t mode)
{
	return S_ISLNK(mode) ? "a symlink (--no-follow)" : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device" : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* 0 ok, 1 this file failed, 2 stdout failed. */
static int cat_one(struct ff_fs *fs, const char *image, const char *path, int no_follow,
		   uint8_t *buf)
{
	struct ff_stat st;
	uint64_t h, off = 0;
	int r = ff_fs_resolve_follow(fs, path, !no_follow, &h);

	if (r == 0)
		r = fs->ops->getattr(fs, h, &st);
	if (r == 0 && S_ISDIR(st.mode))
		r = -EISDIR;
	else if (r == 0 && !S_ISREG(st.mode)) {
		fprintf(stderr, "flashfs cat: %s: %s: %s\n", image, path, not_regular(st.mode));
		return 1;
	}
	while (r == 0) {
		ssize_t n = fs->ops->read(fs, h, buf, CHUNK, off);

		if (n < 0)
			r = (int)n;
		else if (n == 0)
			break;
		else if (write_all(buf, (size_t)n) < 0) {
			fprintf(stderr, "flashfs cat: standard output: %s\n", strerror(errno));
			return 2;
		}
		off += (uint64_t)(n > 0 ? n : 0);
	}
	if (r < 0) {
		fprintf(stderr, "flashfs cat: %s: %s: %s\n", image, path,
			r == -ELOOP ? "too many levels of symlinks (a loop?)" : strerror(-r));
		return 1;
	}
	return 0;
}

static int cmd_cat(int argc, char **argv)
{
	static const struct option opts[] = {
		{"help", no_argument, NULL, 'h'}, {"no-follow", no_argument, NULL, 'N'},
		FF_CLI_LONGOPTS, {NULL, 0, NULL, 0}};
	struct ff_open_opts oo = {0};
	struct ff_fs *fs;
	uint8_t *buf;
	int c, i, rc = 0, no_follow = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		int r = ff_cli_option("cat", c, optarg, &oo);

		if (r < 0)
			return 2;
		if (r)
			continue;
		if (c == 'N') {
			no_follow = 1;
			continue;
		}
		usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : 2;
	}
	if (optind + 2 > argc) {
		usage(stderr);
		return 2;
	}
	if (ff_cli_open("cat", argv[optind], &oo, &fs) < 0)
		return 2;
	buf = malloc(CHUNK);
	for (i = optind + 1; buf && i < argc && rc < 2; i++) {
		int r = cat_one(fs, argv[optind], argv[i], no_follow, buf);

		rc = r > rc ? r : rc;
	}
	if (!buf)
		rc = 2;
	free(buf);
	ff_fs_close(fs);
	return rc;
}

const struct ff_command ff_command_cat = {"cat", cmd_cat,
	"write files to standard output"};
