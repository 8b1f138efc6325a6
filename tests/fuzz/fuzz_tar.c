/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tar reader (ustar, GNU, pax, sparse, and compressed containers),
 * followed by reading back every file from the spool as a builder would. */
#include <stdint.h>

#include "tests/fuzz/fuzz_tree_common.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_tree_file_input(data, size, "input.tar", ff_tree_add_tar);
}
