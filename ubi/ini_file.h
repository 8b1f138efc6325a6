/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The ini syntax alone (see ini.h for what ubinize makes of it). */
#ifndef FF_UBI_INI_FILE_H
#define FF_UBI_INI_FILE_H

#include <stddef.h>

#include "common/error.h"

struct ff_ini_key {
	char *key; /* lower case */
	char *val;
	unsigned line;
};

struct ff_ini_section {
	char *name; /* lower case */
	unsigned line;
	struct ff_ini_key *keys;
	size_t n;
};

struct ff_ini {
	const char *path;
	struct ff_ini_section *sects; /* in order of first appearance */
	size_t n;
};

int ff_ini_load(struct ff_ini *ini, const char *path, struct ff_err *err);
const struct ff_ini_key *ff_ini_get(const struct ff_ini_section *s, const char *key);
void ff_ini_free(struct ff_ini *ini);

#endif
