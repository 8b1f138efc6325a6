/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Bench helper: the random 4 KiB read workload of bench-fuse.sh.
 *   randread DIR LIST
 * LIST holds lines "OFFSET RELPATH"; each line opens DIR/RELPATH, reads
 * 4096 bytes at OFFSET with pread and closes it, one after another.
 * Written in C so that the figure is the file system's time: a Python loop
 * doing the same costs 0.12 s with every page cached, the same for every
 * mounter, which pulls their ratios towards 1. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_one(int dirfd, const char *rel, long long off)
{
	char buf[4096];
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "randread: %s: %s\n", rel, strerror(errno));
		return -1;
	}
	n = pread(fd, buf, sizeof(buf), (off_t)off);
	if (n < 0)
		fprintf(stderr, "randread: %s: read at %lld: %s\n", rel, off, strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	char line[PATH_MAX + 32];
	FILE *list;
	int dirfd, status = 0;
	unsigned long lineno = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: randread DIR LIST\n");
		return 2;
	}
	dirfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	list = fopen(argv[2], "r");
	if (dirfd < 0 || !list) {
		fprintf(stderr, "randread: %s: %s\n", dirfd < 0 ? argv[1] : argv[2], strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), list)) {
		char *rel;
		long long off = strtoll(line, &rel, 10);

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (*rel != ' ' || !rel[1]) {
			fprintf(stderr, "randread: %s:%lu: expected \"OFFSET PATH\"\n", argv[2], lineno);
			return 2;
		}
		if (read_one(dirfd, rel + 1, off) < 0)
			status = 1;
	}
	fclose(list);
	close(dirfd);
	return status;
}
