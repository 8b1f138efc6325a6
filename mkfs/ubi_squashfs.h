/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubi --squashfs DIR: a SquashFS image of DIR, built with
 * mkfs.squashfs' own options (squashfs_args.h) into an unlinked temporary
 * file and added to the volumes of a ubinize configuration as one more
 * section would add it.  The one place that joins the two writers. */
#ifndef FF_MKFS_UBI_SQUASHFS_H
#define FF_MKFS_UBI_SQUASHFS_H

#include <stdint.h>

#include "common/error.h"
#include "common/outfile.h"
#include "mkfs/squashfs_args.h"
#include "mkfs/squashfs_build.h"
#include "mkfs/ubi_volume.h"
#include "ubi/ini.h"

struct ff_ubi_sqfs {
	struct ff_sqfs_args sq;     /* sq.src.source is DIR, NULL without --squashfs */
	struct ff_outfile_kept kept; /* the built volume (its fd goes to the ini) */
};

/* gzip, 128K blocks. */
void ff_ubi_sqfs_init(struct ff_ubi_sqfs *q);
void ff_ubi_sqfs_free(struct ff_ubi_sqfs *q);

/* One of the options by long name without dashes: squashfs DIR,
 * squashfs-comp, squashfs-block-size (mkfs.squashfs' -comp and -b under
 * their old names).
 * 0 handled, 1 not one of them, -1 bad value (err names option and value). */
int ff_ubi_sqfs_option(struct ff_ubi_sqfs *q, const char *name, const char *val,
		       struct ff_err *err);

/* The words after `--`: any mkfs.squashfs option (GNU or mksquashfs
 * spelling), none of them SOURCE or IMAGE.  Then SOURCE_DATE_EPOCH
 * (epoch, may be NULL) and the image time, and a check that the UBI image
 * out is not inside DIR.  As ff_sqfs_args_parse and _finish return. */
int ff_ubi_sqfs_parse(struct ff_ubi_sqfs *q, int argc, char **argv, struct ff_err *err);
int ff_ubi_sqfs_finish(struct ff_ubi_sqfs *q, const char *epoch, const char *out,
		       struct ff_err *err);

/* Builds the image (warnings and -info lines through h) and appends its
 * volume (vol) to ini, which owns the open image from then on.  0, or
 * FF_SQFS_ARGS_USAGE / FF_SQFS_ARGS_ERROR with err, or the tree hook's
 * result. */
int ff_ubi_sqfs_add(struct ff_ubi_sqfs *q, const struct ff_ubi_newvol *vol,
		    struct ff_ubi_ini *ini, const struct ff_sqfs_build_hooks *h,
		    struct ff_err *err);

#endif
