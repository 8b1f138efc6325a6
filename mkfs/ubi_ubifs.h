/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubi --ubifs DIR: a UBIFS image of DIR, built with mkfs.ubifs' own
 * options (ubifs_args.h) into an unnamed temporary file and added to the
 * volumes of a ubinize configuration as one more section would add it.
 * The UBIFS LEB size and min. I/O unit follow from the UBI geometry when
 * the options do not give them, the maximum LEB count from --vol-size. */
#ifndef FF_MKFS_UBI_UBIFS_H
#define FF_MKFS_UBI_UBIFS_H

#include "common/error.h"
#include "common/outfile.h"
#include "common/warn.h"
#include "mkfs/ubi_volume.h"
#include "mkfs/ubifs_args.h"
#include "ubi/ini.h"
#include "ubi/writer.h"

struct ff_ubi_ubifs {
	struct ff_ubifs_args u;      /* u.src.source is DIR, NULL without --ubifs */
	struct ff_outfile_kept kept; /* the built volume (its fd goes to the ini) */
	struct ff_ubifs_write_stats st;
};

void ff_ubi_ubifs_init(struct ff_ubi_ubifs *q);
void ff_ubi_ubifs_free(struct ff_ubi_ubifs *q);

/* The words after `--` (argv[0] is `--`): mkfs.ubifs options, no file
 * names.  As ff_ubifs_args_parse returns. */
int ff_ubi_ubifs_parse(struct ff_ubi_ubifs *q, int argc, char **argv, struct ff_err *err);

/* The geometry's defaults (g, vol's --vol-size), SOURCE_DATE_EPOCH
 * (epoch), and a check that the UBI image out is not inside DIR. */
int ff_ubi_ubifs_finish(struct ff_ubi_ubifs *q, const struct ff_ubi_geom *g,
			const struct ff_ubi_newvol *vol, const char *epoch, const char *out,
			struct ff_err *err);

/* Builds the image (warnings through warn) and appends its volume to
 * ini, which owns the open image from then on.  0, or -1 with err. */
int ff_ubi_ubifs_add(struct ff_ubi_ubifs *q, const struct ff_ubi_newvol *vol,
		     struct ff_ubi_ini *ini, ff_warn_fn warn, void *ctx, struct ff_err *err);

#endif
