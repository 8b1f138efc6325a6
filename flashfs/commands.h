/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The flashfs subcommands.  Each is a thin main: it parses its options,
 * calls the libraries, prints, and returns the exit code
 * (0 ok, 1 problems found or partial failure, 2 usage or fatal error). */
#ifndef FF_FLASHFS_COMMANDS_H
#define FF_FLASHFS_COMMANDS_H

/* A subcommand: defined in its own cmd_NAME.c as ff_command_NAME, and
 * listed in the table of flashfs_main.c. */
struct ff_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

extern const struct ff_command ff_command_info, ff_command_ls, ff_command_cat,
	ff_command_extract, ff_command_check, ff_command_mount, ff_command_flash,
	ff_command_dump, ff_command_bench, ff_command_diff, ff_command_scan, ff_command_formats;

#endif
