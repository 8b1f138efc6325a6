/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs: one command for every format the registry knows. */
#include <flashfs/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/malloc_tune.h"
#include "flashfs/commands.h"

static const struct ff_command *const commands[] = {
	&ff_command_info,    &ff_command_ls,    &ff_command_cat,
	&ff_command_extract, &ff_command_check, &ff_command_mount,
	&ff_command_flash,   &ff_command_dump,  &ff_command_bench,
	&ff_command_diff,    &ff_command_scan,  &ff_command_formats,
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: flashfs COMMAND [OPTIONS] ...\n\n"
		     "The format of an image is detected ('flashfs formats' lists them).\n\n"
		     "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\n'flashfs COMMAND --help' describes one command.\n"
		     "Exit status: 0 ok, 1 problems found or partial failure, 2 usage or fatal error.\n");
}

/* Global options before the command (--offset N, --cache-size N) are moved
 * after it, where every image-reading command parses them itself. */
static char **move_globals(int *argc, char **argv)
{
	char **out = calloc((size_t)*argc + 1, sizeof(*out));
	int i = 1, n = 0, g = 1;

	if (!out)
		return NULL;
	while (i < *argc && (!strncmp(argv[i], "--offset", 8) || !strncmp(argv[i], "--cache-size", 12)))
		i += strchr(argv[i], '=') || i + 1 >= *argc ? 1 : 2;
	out[n++] = argv[0];
	if (i < *argc)
		out[n++] = argv[i];
	for (; g < i; g++)
		out[n++] = argv[g];
	for (i++; i < *argc; i++)
		out[n++] = argv[i];
	*argc = n;
	return out;
}

static int dispatch(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("flashfs (flashfs-tools) " FF_VERSION_STRING "\n");
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i]->name))
			return commands[i]->run(argc - 1, argv + 1);
	/* mount(8) without /sbin/mount.fuse.flashfs falls back to mount.fuse3,
	 * which runs `flashfs IMAGE MOUNTPOINT -o OPTIONS` for fuse.flashfs. */
	if (argc >= 3 && argv[1][0] != '-' && access(argv[1], F_OK) == 0)
		return ff_command_mount.run(argc, argv);
	fprintf(stderr, "flashfs: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	char **args;
	int rc;

	ff_malloc_tune_for_blocks();
	args = move_globals(&argc, argv);
	if (!args)
		return 2;
	rc = dispatch(argc, args);
	free(args);
	return rc;
}
