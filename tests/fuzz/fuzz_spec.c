/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The spec-file parser (--spec).  A small host file "data.txt" sits beside
 * the spec so `file` lines with a relative SOURCE can succeed. */
#include <stdint.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_tree_common.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t content[] = "spec source file\n";
	struct ff_tree *tree = fuzz_tree_new();
	struct ff_err err;
	char path[4096];

	if (!tree)
		return 0;
	fuzz_tmp_file(content, sizeof(content) - 1, "data.txt", path, sizeof(path));
	fuzz_tmp_file(data, size, "spec", path, sizeof(path));
	if (ff_tree_add_spec(tree, path, &err) == 0)
		fuzz_tree_finish_and_read(tree);
	ff_tree_free(tree);
	unlink(path);
	return 0;
}
