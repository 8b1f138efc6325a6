/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubi --squashfs DIR (ubi_squashfs.h). */
#include "mkfs/ubi_squashfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/size.h"
#include "tree/arg_value.h"

void ff_ubi_sqfs_init(struct ff_ubi_sqfs *q)
{
	*q = (struct ff_ubi_sqfs){ 0 };
	ff_sqfs_args_init(&q->sq);
	q->sq.no_positionals = 1;
	q->sq.noappend = 1;  /* the image is a fresh temporary file */
	q->sq.progress = 0;
}

void ff_ubi_sqfs_free(struct ff_ubi_sqfs *q)
{
	if (q->kept.name)
		unlink(q->kept.name);
	free(q->kept.name);
	q->kept.name = NULL;
	ff_sqfs_args_free(&q->sq);
}

/* --squashfs-block-size: the one size syntax (128K, 128KiB, 131072). */
static int block_size(struct ff_ubi_sqfs *q, const char *v, struct ff_err *err)
{
	if (ff_arg_pow2("--squashfs-block-size", v, 4096, 1u << 20, &q->sq.block_size, err))
		return -1;
	q->sq.block_given = 1;
	return 0;
}

int ff_ubi_sqfs_option(struct ff_ubi_sqfs *q, const char *name, const char *val,
		       struct ff_err *err)
{
	if (!strcmp(name, "squashfs")) {
		q->sq.src.source = val;
		return 0;
	}
	if (!strcmp(name, "squashfs-comp")) {
		q->sq.comp_name = val;
		q->sq.comp_given = 1;
		return 0;
	}
	if (!strcmp(name, "squashfs-block-size"))
		return block_size(q, val, err);
	return 1;
}

int ff_ubi_sqfs_parse(struct ff_ubi_sqfs *q, int argc, char **argv, struct ff_err *err)
{
	return ff_sqfs_args_parse(&q->sq, argc, argv, err);
}

int ff_ubi_sqfs_finish(struct ff_ubi_sqfs *q, const char *epoch, const char *out,
		       struct ff_err *err)
{
	int r = ff_sqfs_args_finish(&q->sq, epoch, err);

	if (r == 0 && q->sq.src.source && ff_source_args_check_image(&q->sq.src, out, err) < 0)
		return FF_SQFS_ARGS_USAGE;
	return r;
}

/* Writes the image as an unnamed file in $TMPDIR and keeps only its
 * descriptor: nothing is left behind, even by a kill -9.  The name below
 * is never created; it says where, and names the volume in messages.
 * (Where $TMPDIR refuses O_TMPFILE the image has a temporary name until
 * ff_ubi_sqfs_free.) */
static int build_fd(struct ff_ubi_sqfs *q, const struct ff_sqfs_build_hooks *h, int *fd,
		    struct ff_err *err)
{
	const char *env = getenv("TMPDIR"), *tmp = env && *env ? env : "/tmp";
	struct ff_sqfs_build_hooks keep = *h;
	char path[4200];
	int r;

	if (snprintf(path, sizeof(path), "%s/mkfs.ubi-volume.sqfs", tmp) >= (int)sizeof(path)) {
		ff_err_set(err, ENAMETOOLONG, "TMPDIR '%s': too long", tmp);
		return FF_SQFS_ARGS_ERROR;
	}
	keep.keep = &q->kept;
	q->sq.image = path;
	r = ff_sqfs_args_build(&q->sq, &keep, err);
	q->sq.image = NULL;
	*fd = r == 0 ? q->kept.fd : -1;
	return r;
}

int ff_ubi_sqfs_add(struct ff_ubi_sqfs *q, const struct ff_ubi_newvol *vol,
		    struct ff_ubi_ini *ini, const struct ff_sqfs_build_hooks *h,
		    struct ff_err *err)
{
	char where[96];
	int fd = -1, r = build_fd(q, h, &fd, err);

	if (r)
		return r;
	snprintf(where, sizeof(where), "--squashfs %s", q->sq.src.source);
	return ff_ubi_newvol_add(vol, ini, fd, where, err) < 0 ? FF_SQFS_ARGS_USAGE : 0;
}
