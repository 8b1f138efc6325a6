/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mount.fuse.flashfs: the helper mount(8) runs for `mount -t fuse.flashfs`
 * and for fstab lines of type fuse.flashfs, as
 *
 *   mount.fuse.flashfs IMAGE DIR [-sfnv] [-N NS] [-o OPTIONS] [-t fuse.flashfs]
 *
 * (util-linux looks for /sbin/mount.TYPE.SUBTYPE before /sbin/mount.TYPE).
 * It translates that into `flashfs mount -o OPTIONS IMAGE DIR`. */
#include <flashfs/version.h>
#include <stdio.h>
#include <string.h>

#include "common/malloc_tune.h"
#include "flashfs/commands.h"

#define MAX_ARGS 64

static int usage_to(FILE *f, int rc)
{
	fprintf(f, "usage: mount.fuse.flashfs IMAGE MOUNTPOINT [-o OPTIONS]\n"
		   "(normally run by mount(8): mount -t fuse.flashfs IMAGE MOUNTPOINT)\n"
		   "The options are those of flashfs mount (see flashfs mount --help).\n"
		   "Exit status: 0 ok, 1 serving failed, 2 usage or fatal error.\n");
	return rc;
}

static int usage(void)
{
	return usage_to(stderr, 2);
}

int main(int argc, char **argv)
{
	char *args[MAX_ARGS + 1], *pos[2] = {NULL, NULL};
	int n = 0, npos = 0, fake = 0;

	ff_malloc_tune_for_blocks();
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return usage_to(stdout, 0);
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			printf("mount.fuse.flashfs (flashfs-tools) " FF_VERSION_STRING "\n");
			return 0;
		}
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "-t") || !strcmp(argv[i], "-N"))
			i++; /* an option's value is not a flag */
	}
	args[n++] = "mount";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-o") || !strcmp(a, "-t") || !strcmp(a, "-N")) {
			if (++i >= argc)
				return usage();
			if (a[1] == 'o' && n + 2 < MAX_ARGS) {
				args[n++] = "-o";
				args[n++] = argv[i];
			}
			if (a[1] == 'N') {
				fprintf(stderr, "mount.fuse.flashfs: -N (namespaces) not supported\n");
				return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			/* -s sloppy, -n no mtab, -v verbose: nothing to do; -f fake */
			fake |= strchr(a, 'f') != NULL;
		} else if (npos < 2) {
			pos[npos++] = argv[i];
		} else {
			return usage();
		}
	}
	if (npos != 2 || n + 2 > MAX_ARGS)
		return usage();
	if (fake)
		return 0;
	args[n++] = pos[0];
	args[n++] = pos[1];
	args[n] = NULL;
	return ff_command_mount.run(n, args);
}
