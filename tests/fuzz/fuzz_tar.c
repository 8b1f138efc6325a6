/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tar reader (ustar, GNU, pax, sparse, and compressed containers),
 * followed by reading back every file from the spool as a builder would. */
#include <stdint.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_tree_common.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_tree *tree = fuzz_tree_new();
	struct ff_err err;
	char path[4096];

	if (!tree)
		return 0;
	fuzz_tmp_file(data, size, "input.tar", path, sizeof(path));
	if (ff_tree_add_tar(tree, path, &err) == 0)
		fuzz_tree_finish_and_read(tree);
	ff_tree_free(tree);
	unlink(path);
	return 0;
}
