/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Volumes as the volume table names them, with the LEBs the scan found:
 * which one to open, and its bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/problems.h"
#include "ubi/reader_priv.h"

/* Static volumes: used_ebs and each LEB's data_size give the exact size,
 * and every LEB's data CRC is checked (unless the volume says skip-check,
 * the kernel's meaning of it). */
static int finish_static(struct ff_ubi_image *img, struct ff_ubi_volume *v, struct ff_err *err)
{
	const struct ff_ubi_leb *l0 = ff_ubi_find_leb(img, v->id, 0);
	uint32_t used = l0 ? l0->vid.used_ebs : 0;

	if (used > v->reserved_pebs || used > img->pebs) {
		if (ff_problem_add(&img->problems,
				   "PEB %u: volume %u \"%s\": used_ebs %u is more than "
				   "its %u reserved PEBs or the image's %u", l0->peb, v->id,
				   v->name, used, v->reserved_pebs, img->pebs) < 0)
			return ff_err_set(err, ENOMEM, "out of memory");
		used = v->reserved_pebs < img->pebs ? v->reserved_pebs : img->pebs;
	}

	v->crc = (v->flags & FF_UBI_FLAG_SKIP_CHECK) ? FF_UBI_CRC_NONE : FF_UBI_CRC_OK;
	v->lebs = used;
	for (uint32_t lnum = 0; lnum < used; lnum++) {
		const struct ff_ubi_leb *l = ff_ubi_find_leb(img, v->id, lnum);
		if (!l) {
			v->crc = FF_UBI_CRC_BAD;
			if (ff_problem_add(&img->problems,
					   "volume %u \"%s\": static LEB %u of %u missing",
					   v->id, v->name, lnum, used) < 0)
				return ff_err_set(err, ENOMEM, "out of memory");
			continue;
		}
		v->size += l->vid.data_size;
		if (v->crc == FF_UBI_CRC_NONE)
			continue;
		if (ff_ubi_read_peb(img, l->peb, img->data_offs, img->peb_buf, l->vid.data_size,
				    err) < 0)
			return -1;
		if (ff_ubi_crc32(img->peb_buf, l->vid.data_size) != l->vid.data_crc) {
			v->crc = FF_UBI_CRC_BAD;
			if (ff_problem_add(&img->problems,
					   "PEB %u: volume %u \"%s\" LEB %u: data CRC "
					   "mismatch", l->peb, v->id, v->name, lnum) < 0)
				return ff_err_set(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* LEBs that belong to no volume in the table, or lie past a volume's
 * reserved PEBs, or disagree with its type. */
static int check_lebs(struct ff_ubi_image *img)
{
	for (size_t i = 0; i < img->n_lebs; i++) {
		const struct ff_ubi_leb *l = &img->lebs[i];
		const struct ff_ubi_volume *v = NULL;
		const char *why = NULL;
		for (size_t j = 0; j < img->n_vols && !v; j++)
			if (img->vols[j].id == l->vid.vol_id)
				v = &img->vols[j];
		if (l->vid.vol_id == FF_UBI_LAYOUT_VOL_ID)
			why = l->vid.lnum >= FF_UBI_LAYOUT_VOL_EBS ? "layout LEB past 1" : NULL;
		else if (!v)
			why = "volume not in the volume table";
		else if (l->vid.lnum >= v->reserved_pebs)
			why = "LEB number past the volume's reserved PEBs";
		else if (l->vid.lnum >= img->pebs) /* a dump holds every PEB a volume can have */
			why = "LEB number past the image's PEB count";
		else if (l->vid.vol_type != v->type)
			why = "volume type differs from the volume table";
		if (why && ff_problem_add(&img->problems, "PEB %u: volume %u LEB %u: %s", l->peb,
					  l->vid.vol_id, l->vid.lnum, why) < 0)
			return -1;
	}
	return 0;
}

int ff_ubi_volumes_finish(struct ff_ubi_image *img, struct ff_err *err)
{
	if (check_lebs(img) < 0)
		return ff_err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < img->n_vols; i++) {
		struct ff_ubi_volume *v = &img->vols[i];
		const struct ff_ubi_leb *l = ff_ubi_find_leb(img, v->id, 0);
		v->first_leb = l ? (size_t)(l - img->lebs) : img->n_lebs;
		for (size_t j = v->first_leb; j < img->n_lebs && img->lebs[j].vid.vol_id == v->id;
		     j++)
			if (img->lebs[j].vid.lnum < v->reserved_pebs &&
			    img->lebs[j].vid.lnum < img->pebs) {
				v->mapped_lebs++;
				v->lebs = img->lebs[j].vid.lnum + 1;
			}
		if (v->type == FF_UBI_VOL_STATIC) {
			v->lebs = 0;
			if (finish_static(img, v, err) < 0)
				return -1;
		} else {
			v->size = (uint64_t)v->lebs * v->usable_leb;
		}
	}
	return 0;
}

size_t ff_ubi_volume_count(const struct ff_ubi_image *img)
{
	return img->n_vols;
}

const struct ff_ubi_volume *ff_ubi_volume_at(const struct ff_ubi_image *img, size_t i)
{
	return i < img->n_vols ? &img->vols[i] : NULL;
}

static int list_names(const struct ff_ubi_image *img, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < img->n_vols && n < cap; i++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%u \"%s\"", i ? ", " : "",
				      img->vols[i].id, img->vols[i].name);
	return 0;
}

int ff_ubi_volume_select(const struct ff_ubi_image *img, const char *sel, size_t *index,
			 struct ff_err *err)
{
	char names[256];
	char *end;
	unsigned long id = sel ? strtoul(sel, &end, 10) : 0;
	int by_id = sel && *sel && !*end;

	for (size_t i = 0; i < img->n_vols; i++) {
		const struct ff_ubi_volume *v = &img->vols[i];
		if (sel ? !strcmp(v->name, sel) : (img->n_vols == 1 || !strcmp(v->name, "rootfs"))) {
			*index = i;
			return 0;
		}
	}
	for (size_t i = 0; by_id && i < img->n_vols; i++)
		if (img->vols[i].id == id) {
			*index = i;
			return 0;
		}
	list_names(img, names, sizeof(names));
	if (!img->n_vols)
		return ff_err_set(err, ENOENT, "the UBI image has no volumes");
	if (sel)
		return ff_err_set(err, ENOENT, "no UBI volume \"%s\"; volumes: %s", sel, names);
	return ff_err_set(err, EINVAL, "%zu UBI volumes and none is named rootfs: choose one "
			  "with --volume (%s)", img->n_vols, names);
}

static int write_all(int fd, const uint8_t *p, size_t len, struct ff_err *err)
{
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return ff_err_sys(err, w < 0 ? errno : EIO, "writing the volume copy");
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int ff_ubi_volume_copy(const struct ff_ubi_image *img, size_t i, int out_fd,
		       struct ff_err *err)
{
	const struct ff_ubi_volume *v = &img->vols[i];
	uint8_t *buf = img->peb_buf;

	for (uint32_t lnum = 0; lnum < v->lebs; lnum++) {
		const struct ff_ubi_leb *l = ff_ubi_find_leb(img, v->id, lnum);
		uint32_t len = v->type == FF_UBI_VOL_STATIC ? (l ? l->vid.data_size : 0)
							    : v->usable_leb;
		if (l && ff_ubi_read_peb(img, l->peb, img->data_offs, buf, len, err) < 0)
			return -1;
		if (!l)
			memset(buf, 0xFF, len); /* unmapped: reads as erased */
		if (write_all(out_fd, buf, len, err) < 0)
			return -1;
	}
	return 0;
}
