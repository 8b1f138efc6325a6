/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.squashfs' command-line parser (mkfs/squashfs_args.c), which
 * mkfs.ubi --squashfs DIR -- OPTIONS runs too.  The input is split into
 * argv words at each NUL or newline.  Its first byte picks the mode: odd
 * parses as mkfs.ubi does (no SOURCE/IMAGE words, then finish), even as
 * mkfs.squashfs does (the parse only: its finish looks SOURCE and IMAGE
 * up on disk).
 *
 * The parser opens no file but one: the --action-file family reads its
 * file as it is given.  Every word containing "action-" (the only way to
 * spell those options, or a unique prefix of them) is dropped, so no input
 * reads a file.  --force-uid/--force-gid NAME look the name up with
 * getpwnam/getgrnam, which reads the passwd and group databases. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mkfs/squashfs_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Splits buf (size bytes, NUL-terminated beyond) into words; returns argc. */
static int split(char *buf, size_t size, char **argv, int max)
{
	int argc = 1;
	size_t start = 0;

	argv[0] = "mkfs.squashfs";
	for (size_t i = 0; i <= size && argc < max; i++) {
		if (i < size && buf[i] != '\0' && buf[i] != '\n')
			continue;
		buf[i] = '\0';
		if (!strstr(buf + start, "action-"))
			argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;
	return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_sqfs_args a;
	struct ff_err err;
	char *buf, **argv;
	int argc, mode;

	if (size < 1)
		return 0;
	mode = data[0] & 1;
	buf = malloc(size);
	argv = calloc(size + 2, sizeof(*argv));
	if (!buf || !argv) {
		free(buf);
		free(argv);
		return 0;
	}
	memcpy(buf, data + 1, size - 1);
	argc = split(buf, size - 1, argv, (int)size + 1);
	ff_sqfs_args_init(&a);
	a.no_positionals = mode;
	if (ff_sqfs_args_parse(&a, argc, argv, &err) == 0 && mode)
		ff_sqfs_args_finish(&a, "1600000000", &err);
	ff_sqfs_args_free(&a);
	free(argv);
	free(buf);
	return 0;
}
