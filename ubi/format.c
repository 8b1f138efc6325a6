/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBI as a container in the format registry: the probe checks an EC
 * header, unwrap scans the image as the kernel attaches it and presents the
 * chosen volume as a byte source read in place; `info` shows the UBI layer
 * (geometry and every volume) and `check` its problems, each naming a PEB. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/info.h"
#include "ubi/media.h"
#include "ubi/reader.h"

struct ubi_ctx {
	struct ff_ubi_image *img;
	size_t vol;
};

/* In text, the UBI layer's keys keep their "ubi_" prefix. */
static void put(ff_info_fn fn, void *ctx, enum ff_info_type type, const char *key,
		const char *text_key, uint64_t v, const char *str, const char *text)
{
	fn(ctx, &(struct ff_info_item){ .type = type, .key = key, .text_key = text_key,
					.num = v, .str = str, .text = text });
}

static const char *crc_name(enum ff_ubi_crc_state c)
{
	return c == FF_UBI_CRC_OK ? "ok" : c == FF_UBI_CRC_BAD ? "BAD" : "not checked";
}

/* In text one line per volume: "rootfs": dynamic, 9 LEBs reserved (...), ... */
static void put_volume(ff_info_fn fn, void *ctx, const struct ff_ubi_volume *v)
{
	static const char *const flag_names[] = { "autoresize", "skip-check", NULL };
	uint32_t flags = (v->flags & FF_UBI_FLAG_AUTORESIZE ? 1u : 0) |
			 (v->flags & FF_UBI_FLAG_SKIP_CHECK ? 2u : 0);
	char key[32], val[320], names[32];
	uint64_t reserved = (uint64_t)v->reserved_pebs * v->usable_leb;

	ff_info_names_text(flags, flag_names, names, sizeof(names));
	snprintf(key, sizeof(key), "ubi_volume_%u", v->id);
	snprintf(val, sizeof(val), "\"%s\" %s, reserved %u LEB(s) = %llu bytes, mapped %u, "
		 "used %llu bytes, alignment %u, flags %s, CRC %s", v->name,
		 v->type == FF_UBI_VOL_STATIC ? "static" : "dynamic", v->reserved_pebs,
		 (unsigned long long)reserved, v->mapped_lebs, (unsigned long long)v->size,
		 v->alignment, flags ? names : "none", crc_name(v->crc));
	put(fn, ctx, FF_INFO_OBJECT, NULL, key, 0, NULL, val);
	ff_info_uint(fn, ctx, "id", v->id);
	ff_info_str(fn, ctx, "name", v->name);
	ff_info_str(fn, ctx, "type", v->type == FF_UBI_VOL_STATIC ? "static" : "dynamic");
	ff_info_uint(fn, ctx, "reserved_lebs", v->reserved_pebs);
	ff_info_uint(fn, ctx, "reserved_bytes", reserved);
	ff_info_uint(fn, ctx, "mapped_lebs", v->mapped_lebs);
	ff_info_uint(fn, ctx, "used_bytes", v->size);
	ff_info_uint(fn, ctx, "alignment", v->alignment);
	ff_info_names(fn, ctx, "flags", flags, flag_names, NULL);
	/* static volumes' data CRCs: true/false; null for dynamic ones */
	if (v->crc == FF_UBI_CRC_NONE)
		ff_info_null(fn, ctx, "crc_ok", NULL);
	else
		ff_info_bool(fn, ctx, "crc_ok", v->crc == FF_UBI_CRC_OK);
	ff_info_end(fn, ctx);
}

static void put_summary(ff_info_fn fn, void *ctx, const struct ff_ubi_image *img)
{
	struct ff_ubi_summary s;

	ff_ubi_summary(img, &s);
	const struct { const char *key, *text_key; uint64_t v; } nums[] = {
		{"peb_size", "ubi_peb_size", s.peb_size},
		{"leb_size", "ubi_leb_size", s.leb_size},
		{"vid_hdr_offset", "ubi_vid_hdr_offset", s.vid_hdr_offs},
		{"data_offset", "ubi_data_offset", s.data_offs},
		{"version", "ubi_version", s.version},
		{"image_seq", "ubi_image_seq", s.image_seq},
		{"pebs", "ubi_pebs", s.pebs},
		{"used_pebs", "ubi_used_pebs", s.used_pebs},
		{"free_pebs", "ubi_free_pebs", s.erased_pebs},
		{"bad_pebs", "ubi_bad_pebs", s.bad_pebs},
		{"max_ec", "ubi_max_ec", s.max_ec},
		{"problems", "ubi_problems", ff_ubi_problem_count(img)},
	};

	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		put(fn, ctx, FF_INFO_UINT, nums[i].key, nums[i].text_key, nums[i].v, NULL, NULL);
	if (!s.oob_size)
		return; /* a plain UBI image, not a NAND dump */
	put(fn, ctx, FF_INFO_UINT, "nand_page_size", "ubi_nand_page_size", s.page_size, NULL, NULL);
	put(fn, ctx, FF_INFO_UINT, "nand_oob_size", "ubi_nand_oob_size", s.oob_size, NULL, NULL);
	put(fn, ctx, FF_INFO_UINT, "nand_bad_blocks", "ubi_nand_bad_blocks", s.marked_bad, NULL,
	    NULL);
	put(fn, ctx, FF_INFO_STR, "nand_ecc", "ubi_nand_ecc", 0, s.ecc ? s.ecc : "none", NULL);
	if (!s.ecc)
		return;
	put(fn, ctx, FF_INFO_UINT, "nand_ecc_corrected", "ubi_nand_ecc_corrected",
	    s.ecc_corrected, NULL, NULL);
	put(fn, ctx, FF_INFO_UINT, "nand_ecc_failed", "ubi_nand_ecc_failed", s.ecc_failed, NULL,
	    NULL);
}

static void ubi_info(void *c, const char *inner, ff_info_fn fn, void *ctx)
{
	struct ubi_ctx *u = c;
	const struct ff_ubi_volume *open = ff_ubi_volume_at(u->img, u->vol);
	char sel[160];

	ff_info_begin(fn, ctx, FF_INFO_OBJECT, "ubi", NULL);
	put(fn, ctx, FF_INFO_STR, "container", "container", 0, "ubi", NULL);
	put_summary(fn, ctx, u->img);
	ff_info_begin(fn, ctx, FF_INFO_LIST, "volumes", NULL);
	for (size_t i = 0; i < ff_ubi_volume_count(u->img); i++)
		put_volume(fn, ctx, ff_ubi_volume_at(u->img, i));
	ff_info_end(fn, ctx);
	snprintf(sel, sizeof(sel), "%u \"%s\"", open->id, open->name);
	put(fn, ctx, FF_INFO_OBJECT, "opened_volume", "ubi_opened_volume", 0, NULL, sel);
	ff_info_uint(fn, ctx, "id", open->id);
	ff_info_str(fn, ctx, "name", open->name);
	ff_info_end(fn, ctx);
	if (inner)
		ff_info_str(fn, ctx, "volume_format", inner);
	else
		ff_info_null(fn, ctx, "volume_format", "not readable");
	ff_info_end(fn, ctx);
}

static long ubi_check(void *c, ff_problem_fn fn, void *ctx)
{
	struct ubi_ctx *u = c;
	size_t n = ff_ubi_problem_count(u->img);

	struct ff_err err = {0};
	long ecc;

	for (size_t i = 0; i < n; i++)
		fn(ctx, ff_ubi_problem(u->img, i));
	if ((ecc = ff_ubi_ecc_check(u->img, fn, ctx, &err)) < 0) {
		fn(ctx, err.msg);
		ecc = 1;
	}
	return (long)n + ecc;
}

static void ubi_close(void *c)
{
	struct ubi_ctx *u = c;

	ff_ubi_close(u->img);
	free(u);
}

/* The EC header of the same image at off, or not. */
static int ec_same(struct ff_bsrc *src, uint64_t off, const struct ff_ubi_ec_hdr *ref)
{
	uint8_t buf[FF_UBI_HDR_SIZE];
	struct ff_ubi_ec_hdr h;

	return ff_bsrc_pread(src, buf, sizeof(buf), off) == (ssize_t)sizeof(buf) &&
	       ff_ubi_ec_hdr_decode(buf, &h) == FF_UBI_HDR_OK && h.image_seq == ref->image_seq &&
	       h.vid_hdr_offset == ref->vid_hdr_offset && h.data_offset == ref->data_offset;
}

/* A plain image's size: PEBs of a power-of-two size, each starting with an
 * EC header of this image, counted until one does not (a blob goes on with
 * something else).  0 when the PEB size cannot be told (a NAND dump, whose
 * PEBs carry OOB, or an image of one PEB). */
static uint64_t plain_size(struct ff_bsrc *src, uint64_t off, const struct ff_ubi_ec_hdr *ref)
{
	uint64_t peb = 0, n = 1;

	for (uint64_t d = 512; d <= (2u << 20) && !peb; d *= 2)
		if (d > ref->data_offset && ec_same(src, off + d, ref))
			peb = d;
	if (!peb)
		return 0;
	while (off + (n + 1) * peb <= src->size && ec_same(src, off + n * peb, ref))
		n++;
	return n * peb;
}

/* The EC header at 0 must decode with a good CRC; a magic alone is not
 * enough to call it UBI. */
static int ubi_probe(struct ff_bsrc *src, uint64_t off, const uint8_t *buf, size_t len,
		     const struct ff_open_opts *opts, struct ff_probe *res)
{
	struct ff_ubi_ec_hdr h;

	(void)opts;
	if (!ff_ubi_probe(buf, len))
		return 0;
	res->big_endian = 1;
	res->confidence = FF_PROBE_MAGIC;
	if (len < FF_UBI_HDR_SIZE || ff_ubi_ec_hdr_decode(buf, &h) != FF_UBI_HDR_OK)
		return res->confidence;
	snprintf(res->version, sizeof(res->version), "%u", h.version);
	res->size = plain_size(src, off, &h);
	snprintf(res->detail, sizeof(res->detail), "VID header at %u, data at %u, image seq %u",
		 h.vid_hdr_offset, h.data_offset, h.image_seq);
	return res->confidence = FF_PROBE_VALID;
}

static int ubi_unwrap(struct ff_bsrc *src, const struct ff_open_opts *o, struct ff_unwrapped *out,
		      struct ff_err *err)
{
	struct ff_ubi_hint hint = {o->flash.erase_size, o->flash.page_size, o->flash.oob_size};
	struct ubi_ctx *u = calloc(1, sizeof(*u));

	if (!u)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (ff_ubi_open(src, &hint, &u->img, err) < 0) {
		free(u);
		return ff_err_prefix(err, "UBI");
	}
	if (ff_ubi_volume_select(u->img, o->ubi_volume, &u->vol, err) < 0 ||
	    !(out->inner = ff_ubi_volume_src(u->img, u->vol, err))) {
		ubi_close(u);
		return -1;
	}
	out->ctx = u;
	out->info = ubi_info;
	out->check = ubi_check;
	out->close = ubi_close;
	return 0;
}

static const struct ff_magic ubi_magics[] = {
	{ 0, 4, { 'U', 'B', 'I', '#' } },
	{ 0, 0, { 0 } },
};

const struct ff_format ff_format_ubi = {
	.name = "ubi",
	.title = "UBI",
	.role = FF_ROLE_CONTAINER,
	.magics = ubi_magics,
	.probe_len = FF_UBI_HDR_SIZE,
	.probe = ubi_probe,
	.unwrap = ubi_unwrap,
	.builder = "mkfs.ubi",
};
