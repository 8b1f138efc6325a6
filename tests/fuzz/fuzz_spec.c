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
	char path[4096];

	/* a file for the spec's lines to name */
	fuzz_tmp_file(content, sizeof(content) - 1, "data.txt", path, sizeof(path));
	return fuzz_tree_file_input(data, size, "spec", ff_tree_add_spec);
}
