/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/nand.h"

static const uint32_t page_sizes[] = { 2048, 4096, 512, 1024, 8192, 16384 };

const uint32_t *ff_nand_page_sizes(size_t *n)
{
	*n = sizeof(page_sizes) / sizeof(page_sizes[0]);
	return page_sizes;
}

size_t ff_nand_oob_sizes(uint32_t page_size, uint32_t out[2])
{
	out[0] = page_size / 32;
	out[1] = page_size / 16;
	return 2;
}

int ff_nand_block_marked_bad(const uint8_t *oob, uint32_t oob_size, uint32_t page_size)
{
	uint32_t pos = page_size == 512 ? 5 : 0;

	return pos < oob_size && oob[pos] != 0xff;
}
