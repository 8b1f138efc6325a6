/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The rules a set of volumes must follow before anything is written: the
 * ones ubinize enforces, plus what would make it divide by zero. */
#include <errno.h>
#include <string.h>

#include "ubi/writer.h"

static int check_one(const struct ff_ubi_geom *g, const struct ff_ubi_vol *v,
		     struct ff_err *err)
{
	if (v->id >= g->max_volumes)
		return ff_err_set(err, EINVAL, "%s: volume ID %u is too high, the maximum is %u",
				  v->where, v->id, g->max_volumes - 1);
	if (!v->alignment || v->alignment >= g->leb_size)
		return ff_err_set(err, EINVAL, "%s: alignment %u is not from 1 to %u (LEB size "
				  "- 1)", v->where, v->alignment, g->leb_size - 1);
	if (!v->name[0])
		return ff_err_set(err, EINVAL, "%s: empty volume name", v->where);
	if (!v->bytes)
		return ff_err_set(err, EINVAL, "%s: volume size 0", v->where);
	if (v->fd >= 0 && v->image_size > v->bytes)
		return ff_err_set(err, EINVAL, "%s: the image (%llu bytes) is larger than the "
				  "volume size %llu", v->where, (unsigned long long)v->image_size,
				  (unsigned long long)v->bytes);
	if ((v->flags & FF_UBI_FLAG_SKIP_CHECK) && v->type != FF_UBI_VOL_STATIC)
		return ff_err_set(err, EINVAL, "%s: skip-check is only valid for static volumes",
				  v->where);
	if (v->type == FF_UBI_VOL_STATIC && v->fd < 0)
		return ff_err_set(err, EINVAL, "%s: a static volume needs an image", v->where);
	return 0;
}

int ff_ubi_vols_check(const struct ff_ubi_geom *g, const struct ff_ubi_vol *vols, size_t n,
		      struct ff_err *err)
{
	const struct ff_ubi_vol *autoresize = NULL;

	if (!n)
		return ff_err_set(err, EINVAL, "no volumes");
	for (size_t i = 0; i < n; i++) {
		const struct ff_ubi_vol *v = &vols[i];

		if (check_one(g, v, err) < 0)
			return -1;
		for (size_t j = 0; j < i; j++) {
			if (vols[j].id == v->id)
				return ff_err_set(err, EINVAL, "%s: volume ID %u is also used at %s",
						  v->where, v->id, vols[j].where);
			if (!strcmp(vols[j].name, v->name))
				return ff_err_set(err, EINVAL, "%s: volume name \"%s\" is also "
						  "used at %s", v->where, v->name, vols[j].where);
		}
		if (v->flags & FF_UBI_FLAG_AUTORESIZE) {
			if (autoresize)
				return ff_err_set(err, EINVAL, "%s: only one volume may have the "
						  "autoresize flag (also %s)", v->where,
						  autoresize->where);
			autoresize = v;
		}
	}
	return 0;
}
