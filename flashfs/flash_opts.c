/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "flashfs/flash_opts.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "common/size.h"

static int parse_u32(const char *arg, uint32_t *v, const char *what, struct ff_err *err)
{
	uint64_t n;

	if (ff_parse_size(arg, &n) < 0 || n == 0 || n > UINT32_MAX)
		return ff_err_set(err, EINVAL, "--%s: '%s' is not a positive size (" FF_SIZE_SYNTAX
				  ")", what, arg);
	*v = (uint32_t)n;
	return 0;
}

int ff_flash_layout_option(struct ff_flash_layout *s, int c, const char *arg,
			   struct ff_err *err)
{
	switch (c - FF_FLASH_OPT_BASE) {
	case 0: s->chip = arg; return 1;
	case 1: return parse_u32(arg, &s->page_size, "page-size", err) ? -1 : 1;
	case 2: return parse_u32(arg, &s->oob_size, "oob-size", err) ? -1 : 1;
	case 3: return parse_u32(arg, &s->pages_per_block, "pages-per-block", err) ? -1 : 1;
	case 4: s->oob_layout = arg; return 1;
	case 5: s->ecc = arg; return 1;
	case 6: s->no_tags_ecc = 1; return 1;
	default: return 0;
	}
}

void ff_flash_progress(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
	struct ff_flash_progress *p = ctx;

	p->line_open = done != total;
	fprintf(stderr, "\rflashfs %s: %s block %llu/%llu%s", p->cmd, phase,
		(unsigned long long)done, (unsigned long long)total, done == total ? "\n" : "");
}
