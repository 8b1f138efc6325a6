/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubi --ubifs DIR (ubi_ubifs.h). */
#include "mkfs/ubi_ubifs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void ff_ubi_ubifs_init(struct ff_ubi_ubifs *q)
{
	*q = (struct ff_ubi_ubifs){ .kept = { -1, NULL } };
	ff_ubifs_args_init(&q->u);
	q->u.no_positionals = 1;
}

void ff_ubi_ubifs_free(struct ff_ubi_ubifs *q)
{
	if (q->kept.name)
		unlink(q->kept.name);
	free(q->kept.name);
	q->kept.name = NULL;
	ff_ubifs_args_free(&q->u);
}

int ff_ubi_ubifs_parse(struct ff_ubi_ubifs *q, int argc, char **argv, struct ff_err *err)
{
	return ff_ubifs_args_parse(&q->u, argc, argv, err);
}

/* -c from --vol-size: the volume's LEBs are all the file system may use. */
static int max_lebs(struct ff_ubi_ubifs *q, const struct ff_ubi_newvol *vol,
		    struct ff_err *err)
{
	uint64_t bytes, lebs;

	if (q->u.wo.max_leb_cnt)
		return 0;
	if (ff_ubi_newvol_bytes(vol, &bytes, err))
		return FF_UBIFS_ARGS_USAGE;
	if (!bytes) {
		ff_err_set(err, EINVAL, "--ubifs: give the maximum LEB count (-- -c COUNT) "
			   "or --vol-size");
		return FF_UBIFS_ARGS_USAGE;
	}
	lebs = bytes / q->u.wo.leb_size;
	q->u.wo.max_leb_cnt = lebs > UINT32_MAX ? UINT32_MAX : (uint32_t)lebs;
	return 0;
}

int ff_ubi_ubifs_finish(struct ff_ubi_ubifs *q, const struct ff_ubi_geom *g,
			const struct ff_ubi_newvol *vol, const char *epoch, const char *out,
			struct ff_err *err)
{
	int r;

	if (!q->u.wo.leb_size)
		q->u.wo.leb_size = g->leb_size;
	if (!q->u.wo.min_io)
		q->u.wo.min_io = g->min_io;
	if (q->u.wo.leb_size > g->leb_size) {
		ff_err_set(err, EINVAL, "--ubifs: -e %u: larger than UBI's LEB (%u bytes)",
			   q->u.wo.leb_size, g->leb_size);
		return FF_UBIFS_ARGS_USAGE;
	}
	if ((r = max_lebs(q, vol, err)) || (r = ff_ubifs_args_finish(&q->u, epoch, err)))
		return r;
	if (ff_source_args_check_image(&q->u.src, out, err) < 0)
		return FF_UBIFS_ARGS_USAGE;
	return 0;
}

/* The image as an unnamed file in $TMPDIR, only its descriptor kept:
 * nothing is left behind, even by a kill -9.  The name is never created;
 * it says where, and names the volume in messages. */
int ff_ubi_ubifs_add(struct ff_ubi_ubifs *q, const struct ff_ubi_newvol *vol,
		     struct ff_ubi_ini *ini, ff_warn_fn warn, void *ctx, struct ff_err *err)
{
	const char *env = getenv("TMPDIR"), *tmp = env && *env ? env : "/tmp";
	char path[4200], where[96];
	struct ff_tree *t;
	int r;

	if (snprintf(path, sizeof(path), "%s/mkfs.ubi-volume.ubifs", tmp) >= (int)sizeof(path))
		return ff_err_set(err, ENAMETOOLONG, "TMPDIR '%s': too long", tmp);
	q->u.src.warn = warn;
	q->u.src.warn_ctx = ctx;
	t = ff_source_args_build(&q->u.src, err);
	if (!t)
		return -1;
	q->u.wo.keep = &q->kept;
	r = ff_ubifs_write(t, &q->u.wo, path, &q->st, err);
	ff_tree_free(t);
	if (r)
		return -1;
	snprintf(where, sizeof(where), "--ubifs %s", q->u.src.source);
	r = ff_ubi_newvol_add(vol, ini, q->kept.fd, where, err);
	q->kept.fd = -1;
	return r;
}
