/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The volume mkfs.ubi builds in one step (--squashfs DIR or --ubifs DIR):
 * its --vol-* options, and its place among the ini file's volumes, as one
 * more section would describe it. */
#ifndef FF_MKFS_UBI_VOLUME_H
#define FF_MKFS_UBI_VOLUME_H

#include <stdint.h>

#include "common/error.h"
#include "ubi/ini.h"

struct ff_ubi_newvol {
	const char *name, *type, *flags, *size; /* --vol-*: NULL for the default */
	int64_t id;                 /* --vol-id; -1: the lowest ID the ini leaves free */
};

/* Volume rootfs, dynamic, the lowest free ID, the image's size. */
void ff_ubi_newvol_init(struct ff_ubi_newvol *v);

/* One of vol-name, vol-id, vol-type, vol-size, vol-flags (the long name
 * without dashes).  0 handled, 1 not one of them, -1 bad value (err
 * names option and value). */
int ff_ubi_newvol_option(struct ff_ubi_newvol *v, const char *name, const char *val,
			 struct ff_err *err);

/* --vol-size in bytes (0 when not given); -1 when it is not a size. */
int ff_ubi_newvol_bytes(const struct ff_ubi_newvol *v, uint64_t *bytes, struct ff_err *err);

/* Appends the volume holding the image open at fd (ini owns fd from then
 * on, also on failure); where names it in messages ("--ubifs DIR"). */
int ff_ubi_newvol_add(const struct ff_ubi_newvol *v, struct ff_ubi_ini *ini, int fd,
		      const char *where, struct ff_err *err);

#endif
