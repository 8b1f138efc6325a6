/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.ubi's one-step volume (ubi_volume.h). */
#include "mkfs/ubi_volume.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/size.h"
#include "ubi/writer.h"

void ff_ubi_newvol_init(struct ff_ubi_newvol *v)
{
	*v = (struct ff_ubi_newvol){ .name = "rootfs", .id = -1 };
}

static int bad(struct ff_err *err, const char *opt, const char *val, const char *what)
{
	return ff_err_set(err, EINVAL, "--%s '%s': %s", opt, val, what);
}

int ff_ubi_newvol_option(struct ff_ubi_newvol *q, const char *name, const char *v,
			 struct ff_err *err)
{
	uint64_t n;

	if (!strcmp(name, "vol-name"))
		q->name = v;
	else if (!strcmp(name, "vol-size"))
		q->size = v;
	else if (!strcmp(name, "vol-type") && (!strcmp(v, "static") || !strcmp(v, "dynamic")))
		q->type = v;
	else if (!strcmp(name, "vol-type"))
		return bad(err, name, v, "not static or dynamic");
	else if (!strcmp(name, "vol-flags") &&
		 (!strcmp(v, "autoresize") || !strcmp(v, "skip-check")))
		q->flags = v;
	else if (!strcmp(name, "vol-flags"))
		return bad(err, name, v, "not autoresize or skip-check");
	else if (strcmp(name, "vol-id"))
		return 1;
	else if (ff_ubi_parse_num(v, FF_UBI_MAX_VOLUMES - 1, &n) < 0)
		return bad(err, name, v, "not a number from 0 to 127");
	else
		q->id = (int64_t)n;
	return 0;
}

int ff_ubi_newvol_bytes(const struct ff_ubi_newvol *v, uint64_t *bytes, struct ff_err *err)
{
	*bytes = 0;
	if (v->size && (ff_parse_size(v->size, bytes) < 0 || !*bytes))
		return ff_err_set(err, EINVAL, "--vol-size '%s': not a size (" FF_SIZE_SYNTAX ")",
				  v->size);
	return 0;
}

/* The lowest volume ID the first n volumes leave free. */
static uint32_t lowest_free(const struct ff_ubi_vol *vols, size_t n)
{
	uint32_t id = 0;

	for (size_t i = 0; i < n; i++) /* after a hit, look again from the start */
		if (vols[i].id == id) {
			id++;
			i = (size_t)-1;
		}
	return id;
}

/* The volume as an ini section would describe it. */
static int fill(const struct ff_ubi_newvol *q, const struct ff_ubi_ini *ini,
		struct ff_ubi_vol *v, const char *where, struct ff_err *err)
{
	snprintf(v->where, sizeof(v->where), "%s", where);
	v->type = q->type && !strcmp(q->type, "static") ? FF_UBI_VOL_STATIC
							  : FF_UBI_VOL_DYNAMIC;
	v->flags = !q->flags ? 0 : !strcmp(q->flags, "autoresize") ? FF_UBI_FLAG_AUTORESIZE
								   : FF_UBI_FLAG_SKIP_CHECK;
	if (strlen(q->name) > FF_UBI_VOL_NAME_MAX)
		return ff_err_set(err, EINVAL, "--vol-name: longer than 127 characters");
	strcpy(v->name, q->name);
	v->alignment = 1;
	if (ff_ubi_newvol_bytes(q, &v->bytes, err))
		return -1;
	if (!v->bytes)
		v->bytes = v->image_size;
	v->id = q->id >= 0 ? (uint32_t)q->id : lowest_free(ini->vols, ini->n - 1);
	return 0;
}

int ff_ubi_newvol_add(const struct ff_ubi_newvol *q, struct ff_ubi_ini *ini, int fd,
		      const char *where, struct ff_err *err)
{
	struct ff_ubi_vol *vols = realloc(ini->vols, (ini->n + 1) * sizeof(*vols));
	struct ff_ubi_vol *v;
	struct stat st;

	if (!vols) {
		close(fd);
		return ff_err_set(err, ENOMEM, "out of memory");
	}
	ini->vols = vols;
	v = &vols[ini->n++]; /* owns the fd */
	*v = (struct ff_ubi_vol){ .fd = fd };
	if (fstat(fd, &st) < 0)
		return ff_err_sys(err, errno, "%s: the image", where);
	v->image_size = (uint64_t)st.st_size;
	return fill(q, ini, v, where, err);
}
