/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffls IMAGE [OFFSET [VOLUME]]: list every entry of any image libflashfs reads, one
 * line each: TYPE MODE UID GID SIZE PATH [-> TARGET], in the letters and
 * octal of `find -printf '%y %m %U %G'`; VOLUME picks a UBI volume by
 * name or ID.  Build: cc ffls.c $(pkg-config
 * --cflags --libs flashfs) */
#include <flashfs/flashfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

struct walk { struct ff_reader *r; const char *dir; };

static int entry(void *ctx, const char *name, uint64_t node, uint32_t mode)
{
	struct walk *w = ctx, sub = { w->r, NULL };
	struct ff_attr a;
	char path[4096], target[4096] = "";
	int rc = 0;

	snprintf(path, sizeof(path), "%s%s%s", w->dir, *w->dir ? "/" : "", name);
	if (ff_reader_stat(w->r, node, &a, NULL) ||
	    (S_ISLNK(mode) && ff_reader_readlink(w->r, node, target, sizeof(target), NULL) < 0))
		return 1;
	printf("%c %o %u %u %llu %s%s%s\n", "?pc?d?b?f?l?s"[(a.mode >> 12) & 15], /* type bits */
	       a.mode & 07777, a.uid, a.gid, S_ISREG(a.mode) ? (unsigned long long)a.size : 0ull,
	       path, *target ? " -> " : "", target);
	if (S_ISDIR(mode)) {
		sub.dir = path;
		rc = ff_reader_readdir(w->r, node, entry, &sub, NULL);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct ff_reader_options o;
	struct ff_reader *r;
	struct ff_error err;
	struct walk w = { NULL, "" };
	int rc;

	ff_reader_options_init(&o, sizeof(o));
	o.offset = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
	o.volume = argc > 3 ? argv[3] : NULL;
	if (argc < 2 || ff_reader_open(argv[1], &o, &r, &err)) {
		fprintf(stderr, "ffls: %s\n", argc < 2 ? "usage: ffls IMAGE [OFFSET [VOLUME]]" : err.message);
		return 2;
	}
	w.r = r;
	rc = ff_reader_readdir(r, ff_reader_root(r), entry, &w, &err);
	if (rc)
		fprintf(stderr, "ffls: %s: %s\n", argv[1], rc < 0 ? err.message : "read error");
	ff_reader_close(r);
	return rc ? 1 : 0;
}
