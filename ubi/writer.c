/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The UBI image writer.  Every PEB is written whole: EC header, VID header,
 * the LEB's data, 0xFF to the end (erased flash), so the image can be
 * written to a NAND partition page by page.  The volume table is known
 * before any data is read, so the layout volume goes out first and the
 * file is written strictly in order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ubi/writer.h"

struct peb_buf {
	const struct ff_ubi_geom *g;
	const struct ff_ubi_write_opts *o;
	uint8_t *peb;
};

/* Resets the PEB to erased bytes with a fresh EC header. */
static void peb_start(struct peb_buf *b)
{
	struct ff_ubi_ec_hdr ec = {
		.version = b->o->ubi_version,
		.ec = b->o->ec,
		.vid_hdr_offset = b->g->vid_hdr_offs,
		.data_offset = b->g->data_offs,
		.image_seq = b->o->image_seq,
	};

	memset(b->peb, 0xFF, b->g->peb_size);
	ff_ubi_ec_hdr_encode(&ec, b->peb);
}

static void fill_vtbl(const struct ff_ubi_geom *g, const struct ff_ubi_vol *vols, size_t n,
		      uint8_t *out)
{
	struct ff_ubi_vtbl_record empty = {0};

	for (uint32_t i = 0; i < g->max_volumes; i++)
		ff_ubi_vtbl_record_encode(&empty, out + (size_t)i * FF_UBI_VTBL_RECORD_SIZE);
	for (size_t i = 0; i < n; i++) {
		const struct ff_ubi_vol *v = &vols[i];
		struct ff_ubi_vtbl_record r = {
			.reserved_pebs = (uint32_t)((v->bytes + g->leb_size - 1) / g->leb_size),
			.alignment = v->alignment,
			.data_pad = g->leb_size % v->alignment,
			.vol_type = v->type,
			.name_len = (uint16_t)strlen(v->name),
			.flags = v->flags,
		};
		memcpy(r.name, v->name, r.name_len + 1);
		ff_ubi_vtbl_record_encode(&r, out + (size_t)v->id * FF_UBI_VTBL_RECORD_SIZE);
	}
}

/* PEBs 0 and 1: the two copies of the volume table, LEBs 0 and 1 of the
 * layout volume. */
static int write_layout(struct ff_outfile *of, struct peb_buf *b, const struct ff_ubi_vol *vols,
			size_t n, struct ff_err *err)
{
	for (uint32_t lnum = 0; lnum < FF_UBI_LAYOUT_VOL_EBS; lnum++) {
		struct ff_ubi_vid_hdr vid = {
			.version = b->o->ubi_version,
			.vol_type = FF_UBI_VOL_DYNAMIC,
			.compat = FF_UBI_COMPAT_REJECT,
			.vol_id = FF_UBI_LAYOUT_VOL_ID,
			.lnum = lnum,
		};
		peb_start(b);
		ff_ubi_vid_hdr_encode(&vid, b->peb + b->g->vid_hdr_offs);
		fill_vtbl(b->g, vols, n, b->peb + b->g->data_offs);
		if (ff_outfile_write(of, b->peb, b->g->peb_size, err) < 0)
			return -1;
	}
	return 0;
}

static int read_full(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t r = pread(fd, buf, len, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		buf += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

static int write_volume(struct ff_outfile *of, struct peb_buf *b, const struct ff_ubi_vol *v,
			struct ff_err *err)
{
	const struct ff_ubi_geom *g = b->g;
	uint32_t usable = ff_ubi_usable_leb(g, v->alignment);
	uint8_t *data = b->peb + g->data_offs;
	uint64_t off = 0;

	for (uint32_t lnum = 0; off < v->image_size; lnum++) {
		uint64_t left = v->image_size - off;
		uint32_t len = left < usable ? (uint32_t)left : usable;
		struct ff_ubi_vid_hdr vid = {
			.version = b->o->ubi_version, .vol_type = v->type, .vol_id = v->id,
			.lnum = lnum, .data_pad = g->leb_size - usable,
		};
		int rc;

		peb_start(b);
		rc = read_full(v->fd, data, len, off);
		if (rc < 0)
			return ff_err_sys(err, rc == -EIO ? EIO : -rc, "%s: reading the volume "
					  "image at offset %llu", v->where, (unsigned long long)off);
		if (v->type == FF_UBI_VOL_STATIC) {
			vid.data_size = len;
			vid.used_ebs = (uint32_t)((v->image_size + usable - 1) / usable);
			vid.data_crc = ff_ubi_crc32(data, len);
		}
		ff_ubi_vid_hdr_encode(&vid, b->peb + g->vid_hdr_offs);
		memset(data + len, 0xFF, g->leb_size - len);
		if (ff_outfile_write(of, b->peb, g->peb_size, err) < 0)
			return -1;
		off += len;
	}
	return 0;
}

int ff_ubi_write(struct ff_outfile *of, const struct ff_ubi_geom *g,
		 const struct ff_ubi_write_opts *o, const struct ff_ubi_vol *vols, size_t n,
		 struct ff_err *err)
{
	struct peb_buf b = {.g = g, .o = o, .peb = malloc(g->peb_size)};
	int rc = 0;

	if (!b.peb)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (ff_ubi_vols_check(g, vols, n, err) < 0 || write_layout(of, &b, vols, n, err) < 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (vols[i].fd >= 0)
			rc = write_volume(of, &b, &vols[i], err);
	free(b.peb);
	return rc;
}
