/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The only list of formats.  Order matters only between probes of equal
 * confidence (the first wins) and for speed: formats with a magic come
 * first, YAFFS2 (no magic, a costly detection) and the detect-only probes
 * last. */
#include <strings.h>

#include "image/registry.h"

extern const struct ff_format ff_format_ubi;
extern const struct ff_format ff_format_squashfs;
extern const struct ff_format ff_format_ubifs;
extern const struct ff_format ff_format_cramfs;
extern const struct ff_format ff_format_erofs;
extern const struct ff_format ff_format_squashfs_legacy;
extern const struct ff_format ff_format_cstream;
extern const struct ff_format ff_format_romfs;
extern const struct ff_format ff_format_jffs2;
extern const struct ff_format ff_format_yaffs2;
extern const struct ff_format ff_format_empty;
extern const struct ff_format ff_format_tar;
extern const struct ff_format ff_format_blkid;

static const struct ff_format *const formats[] = {
	&ff_format_ubi,
	&ff_format_squashfs,
	&ff_format_squashfs_legacy,
	&ff_format_ubifs,
	&ff_format_cramfs,
	&ff_format_erofs,
	&ff_format_cstream,
	&ff_format_romfs,
	&ff_format_jffs2,
	&ff_format_yaffs2,
	&ff_format_empty,
	&ff_format_tar,
	&ff_format_blkid,
};

size_t ff_format_count(void)
{
	return sizeof(formats) / sizeof(formats[0]);
}

const struct ff_format *ff_format_at(size_t i)
{
	return i < ff_format_count() ? formats[i] : NULL;
}

static int named(const struct ff_format *f, const char *name)
{
	if (!strcasecmp(f->name, name))
		return 1;
	for (size_t i = 0; f->aliases && f->aliases[i]; i++)
		if (!strcasecmp(f->aliases[i], name))
			return 1;
	return 0;
}

const struct ff_format *ff_format_find(const char *name)
{
	for (size_t i = 0; i < ff_format_count(); i++)
		if (named(formats[i], name))
			return formats[i];
	return NULL;
}

unsigned ff_format_abilities(const struct ff_format *f)
{
	unsigned can = FF_CAN_DETECT;

	if (f->open || f->unwrap)
		can |= FF_CAN_READ | FF_CAN_MOUNT;
	if (f->builder)
		can |= FF_CAN_BUILD;
	return can;
}
