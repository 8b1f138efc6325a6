/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A UBI volume as a byte source, read in place: each read finds the PEB
 * holding the LEB and reads its data area (around the OOB in a NAND dump),
 * so a volume is never copied.  An unmapped LEB reads as erased flash
 * (0xFF), as the kernel's UBI returns it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ubi/reader_priv.h"

struct vol_src {
	struct ff_bsrc base;
	const struct ff_ubi_image *img;
	const struct ff_ubi_volume *vol;
	uint32_t lebs;
	/* A static volume's LEBs hold data_size bytes each: starts[i] is the
	 * volume offset of LEB i's first byte, starts[lebs] the size.  NULL
	 * for a dynamic volume, whose LEBs are all usable_leb bytes. */
	uint64_t *starts;
};

static uint64_t start_of(const struct vol_src *v, uint32_t lnum)
{
	return v->starts ? v->starts[lnum] : (uint64_t)lnum * v->vol->usable_leb;
}

static uint32_t leb_of(const struct vol_src *v, uint64_t off)
{
	uint32_t lo = 0, hi = v->lebs;

	if (!v->starts)
		return (uint32_t)(off / v->vol->usable_leb);
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v->starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static ssize_t vol_pread(struct ff_bsrc *s, void *buf, size_t len, uint64_t off)
{
	struct vol_src *v = (struct vol_src *)s;
	uint8_t *p = buf;
	size_t done = 0;

	if (off >= s->size)
		return 0;
	if (len > s->size - off)
		len = (size_t)(s->size - off);
	while (done < len) {
		uint32_t lnum = leb_of(v, off + done);
		uint64_t in = off + done - start_of(v, lnum);
		uint64_t n = start_of(v, lnum + 1) - (off + done);
		const struct ff_ubi_leb *l = ff_ubi_find_leb(v->img, v->vol->id, lnum);

		if (n > len - done)
			n = len - done;
		if (!l)
			memset(p + done, 0xFF, (size_t)n);
		else if (ff_ubi_read_peb(v->img, l->peb, v->img->data_offs + (uint32_t)in, p + done,
					 (size_t)n, NULL) < 0)
			return -EIO;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static void vol_destroy(struct ff_bsrc *s)
{
	free(((struct vol_src *)s)->starts);
}

static const struct ff_bsrc_ops vol_ops = { vol_pread, vol_destroy };

/* A dynamic volume spans its reserved LEBs, as the kernel's does (UBIFS
 * addresses LEBs past the last one written), but never more than the
 * image's PEBs: the volume table's count is not trusted further. */
static int size_volume(struct vol_src *v)
{
	const struct ff_ubi_volume *vol = v->vol;
	uint64_t at = 0;

	if (vol->type != FF_UBI_VOL_STATIC) {
		uint32_t n = vol->reserved_pebs < v->img->pebs ? vol->reserved_pebs : v->img->pebs;

		v->lebs = vol->lebs > n ? vol->lebs : n;
		v->base.size = (uint64_t)v->lebs * vol->usable_leb;
		return 0;
	}
	v->lebs = vol->lebs;
	v->starts = calloc((size_t)vol->lebs + 1, sizeof(*v->starts));
	if (!v->starts)
		return -1;
	for (uint32_t i = 0; i < vol->lebs; i++) {
		const struct ff_ubi_leb *l = ff_ubi_find_leb(v->img, vol->id, i);

		v->starts[i] = at;
		at += l ? l->vid.data_size : 0;
	}
	v->starts[vol->lebs] = at;
	v->base.size = at;
	return 0;
}

struct ff_bsrc *ff_ubi_volume_src(const struct ff_ubi_image *img, size_t i, struct ff_err *err)
{
	struct vol_src *v = calloc(1, sizeof(*v));
	char name[FF_UBI_VOL_NAME_MAX + 512];

	if (!v) {
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	v->img = img;
	v->vol = &img->vols[i];
	snprintf(name, sizeof(name), "UBI volume \"%s\"", v->vol->name);
	if (ff_bsrc_init(&v->base, &vol_ops, 0, name, err) < 0) {
		free(v);
		return NULL;
	}
	if (size_volume(v) < 0) {
		ff_err_set(err, ENOMEM, "out of memory");
		ff_bsrc_unref(&v->base);
		return NULL;
	}
	return &v->base;
}
