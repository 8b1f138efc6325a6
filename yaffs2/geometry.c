/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/geometry.h"

#include "common/nand.h"

#include <errno.h>
#include <string.h>

/* nandsim ids: the fourth byte encodes page size (bits 0-1), OOB per 512
 * bytes (bit 2) and block size (bits 4-5) for the large-page chips. */
static const struct ff_y2_chip chips[] = {
	{ "nandsim-512", { 512, 16, 32 }, 32ull << 20, { 0xec, 0x75, 0, 0 },
	  "nandsim 32 MiB small-page (512+16, 16 KiB blocks)" },
	{ "nandsim-2k-128m", { 2048, 64, 64 }, 128ull << 20, { 0x20, 0xf1, 0x00, 0x15 },
	  "nandsim 128 MiB (2048+64, 128 KiB blocks)" },
	{ "nandsim-2k-256m", { 2048, 64, 64 }, 256ull << 20, { 0x20, 0xaa, 0x00, 0x15 },
	  "nandsim 256 MiB (2048+64, 128 KiB blocks)" },
	{ "nandsim-4k", { 4096, 128, 64 }, 512ull << 20, { 0x20, 0xdc, 0x00, 0x26 },
	  "nandsim 512 MiB (4096+128, 256 KiB blocks)" },
	{ "k9f1g08", { 2048, 64, 64 }, 128ull << 20, { 0xec, 0xf1, 0x00, 0x95 },
	  "Samsung K9F1G08 1 Gbit SLC" },
	{ "mt29f4g08", { 2048, 64, 64 }, 512ull << 20, { 0x2c, 0xdc, 0x90, 0x95 },
	  "Micron MT29F4G08 4 Gbit SLC" },
	{ "tc58nvg2s0h", { 4096, 256, 64 }, 512ull << 20, { 0x98, 0xdc, 0x90, 0x26 },
	  "Toshiba TC58NVG2S0H 4 Gbit SLC (4096+256)" },
	{ NULL, { 0, 0, 0 }, 0, { 0, 0, 0, 0 }, NULL },
};

void ff_y2_geom_default(struct ff_y2_geom *g)
{
	g->page_size = 2048;
	g->oob_size = 64;
	g->pages_per_block = 64;
}

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int ff_y2_geom_check(const struct ff_y2_geom *g, struct ff_err *err)
{
	if (!is_pow2(g->page_size) || g->page_size < 512 || g->page_size > 16384)
		return ff_err_set(err, EINVAL,
				  "page size %u: must be a power of two from 512 to 16384",
				  g->page_size);
	if (g->oob_size > 1024 || g->oob_size > g->page_size)
		return ff_err_set(err, EINVAL, "OOB size %u: larger than %u", g->oob_size,
				  g->page_size < 1024 ? g->page_size : 1024);
	if (!is_pow2(g->pages_per_block) || g->pages_per_block < 2 ||
	    g->pages_per_block > 1024)
		return ff_err_set(err, EINVAL,
				  "pages per block %u: must be a power of two from 2 to 1024",
				  g->pages_per_block);
	return 0;
}

const struct ff_y2_chip *ff_y2_chips(void)
{
	return chips;
}

const struct ff_y2_chip *ff_y2_chip_find(const char *name)
{
	for (const struct ff_y2_chip *c = chips; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

uint32_t ff_y2_default_oob(uint32_t page_size)
{
	uint32_t oobs[2];

	ff_nand_oob_sizes(page_size, oobs);
	return oobs[0];
}
