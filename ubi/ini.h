/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ubinize's configuration file: one [section] per volume with the keys
 * mode=ubi, image, vol_id, vol_size, vol_type, vol_name, vol_alignment and
 * vol_flags (autoresize | skip-check).  Parsed as mtd-utils' iniparser
 * reads it (keys and section names ignore case, '#' starts a comment line,
 * ';' or '#' ends an unquoted value, "..." and '...' quote one, a trailing
 * backslash continues a line), and checked as ubinize checks it, with every
 * message naming FILE:LINE. */
#ifndef FF_UBI_INI_H
#define FF_UBI_INI_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "ubi/writer.h"

struct ff_ubi_ini {
	struct ff_ubi_vol *vols; /* in section order; fds open on the images */
	size_t n;
	char **notes;            /* things ignored, e.g. unknown keys: FILE:LINE: ... */
	size_t n_notes;
};

int ff_ubi_ini_load(const char *path, const struct ff_ubi_geom *g, struct ff_ubi_ini *ini,
		    struct ff_err *err);
void ff_ubi_ini_free(struct ff_ubi_ini *ini);

/* A byte count as ubinize spells it: a C number (decimal, 0x hex, 0 octal)
 * optionally followed by KiB, MiB or GiB.  0 ok, -1 bad. */
int ff_ubi_parse_bytes(const char *s, uint64_t *out);
/* A plain C number (decimal, 0x hex, 0 octal) up to max.  0 ok, -1 bad. */
int ff_ubi_parse_num(const char *s, uint64_t max, uint64_t *out);

#endif
