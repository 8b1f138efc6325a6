/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The mksquashfs pseudo-file parser (-pf).  Pseudo 'f' lines run a shell
 * command; a fuzzer must never do that, so this program supplies its own
 * popen/pclose (the executable's definitions win over libc's) which hand
 * back fixed text instead. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_tree_common.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FILE *popen(const char *cmd, const char *mode)
{
	static char text[] = "output of a command that was not run\n";

	(void)cmd;
	if (strcmp(mode, "r")) {
		errno = EPERM;
		return NULL;
	}
	return fmemopen(text, sizeof(text) - 1, "r");
}

int pclose(FILE *f)
{
	fclose(f);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_tree_file_input(data, size, "pseudo", ff_tree_add_pseudo_file);
}
