/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Flash read bandwidths: numbers with units, and named presets for the
 * kinds of parts boards boot from. */
#include "bench/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tree/build.h"

struct preset {
	const char *name;
	double mbps;
	const char *what;
	unsigned medium;   /* which file systems suit it (tree/build.h) */
};

/* Typical sustained reads; datasheets span a range, the help says which. */
static const struct preset presets[] = {
	{ "spi-nor-slow", 5, "SPI-NOR, single I/O at ~40 MHz (5 MB/s)", FF_MEDIUM_NOR },
	{ "spi-nor", 20, "SPI-NOR, quad I/O (range 5..50 MB/s)", FF_MEDIUM_NOR },
	{ "spi-nor-fast", 50, "SPI-NOR, octal/DTR parts (50 MB/s)", FF_MEDIUM_NOR },
	{ "slc-nand", 25, "raw SLC NAND on a parallel bus (range 20..30 MB/s)", FF_MEDIUM_NAND },
	{ "spi-nand", 10, "SPI-NAND, quad I/O (10 MB/s)", FF_MEDIUM_NAND },
	{ "emmc", 150, "eMMC HS200 sequential read (100+ MB/s)", FF_MEDIUM_BLOCK },
	{ "sd", 20, "SD card, high-speed mode (20 MB/s)", FF_MEDIUM_BLOCK },
};

const char *bench_flash_presets_help(void)
{
	return "  spi-nor-slow   5 MB/s   SPI-NOR, single I/O at ~40 MHz            nor\n"
	       "  spi-nor       20 MB/s   SPI-NOR, quad I/O (parts range 5..50 MB/s) nor\n"
	       "  spi-nor-fast  50 MB/s   SPI-NOR, octal/DTR                        nor\n"
	       "  slc-nand      25 MB/s   raw SLC NAND (parts range 20..30 MB/s)    nand\n"
	       "  spi-nand      10 MB/s   SPI-NAND, quad I/O                        nand\n"
	       "  emmc         150 MB/s   eMMC HS200 (100+ MB/s)                    block\n"
	       "  sd            20 MB/s   SD card, high-speed mode                  block\n";
}

static const struct preset *find_preset(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strlen(presets[i].name) == len && !strncasecmp(presets[i].name, name, len))
			return &presets[i];
	return NULL;
}

static int unit_factor(const char *u, double *f)
{
	static const struct { const char *u; double f; } units[] = {
		{ "", 1 }, { "MB/s", 1 }, { "MB", 1 }, { "M", 1 }, { "KB/s", 1e-3 }, { "KB", 1e-3 },
		{ "K", 1e-3 }, { "kB/s", 1e-3 }, { "B/s", 1e-6 }, { "GB/s", 1e3 }, { "G", 1e3 },
		{ "MiB/s", 1.048576 }, { "KiB/s", 1.024e-3 }, { "Mbit/s", 0.125 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].u)) {
			*f = units[i].f;
			return 0;
		}
	return -1;
}

static int parse_one(const char *tok, size_t len, struct bench_flash *out, struct ff_err *err)
{
	const struct preset *p = find_preset(tok, len);
	char buf[64], *end;
	double v, f;

	memset(out, 0, sizeof(*out));
	if (p) {
		snprintf(out->name, sizeof(out->name), "%s", p->name);
		out->mbps = p->mbps;
		out->medium = p->medium;
		return 0;
	}
	if (len >= sizeof(buf))
		return ff_err_set(err, EINVAL, "flash speed '%.*s': too long", (int)len, tok);
	memcpy(buf, tok, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	if (end == buf || unit_factor(end, &f) || !(v > 0) || v * f > 1e6)
		return ff_err_set(err, EINVAL, "flash speed '%s': expected a positive number "
					       "with an optional unit (KB/s, MB/s, GB/s, MiB/s) "
					       "or a preset name", buf);
	out->mbps = v * f;
	return 0;
}

int bench_flash_parse(const char *text, struct bench_flash *out, size_t cap, size_t *n,
		      struct ff_err *err)
{
	const char *p = text;

	*n = 0;
	while (*p) {
		size_t len = strcspn(p, ", ");

		if (len) {
			if (*n == cap)
				return ff_err_set(err, EINVAL, "flash speeds: more than %zu given", cap);
			if (parse_one(p, len, &out[*n], err))
				return -1;
			(*n)++;
		}
		p += len;
		p += strspn(p, ", ");
	}
	if (!*n)
		return ff_err_set(err, EINVAL, "flash speeds: empty list '%s'", text);
	return 0;
}

const char *bench_medium_name(unsigned medium)
{
	return medium & FF_MEDIUM_NAND ? "nand" : medium & FF_MEDIUM_NOR ? "nor" : "block";
}
