/* The UBI wrapper around a volume's file system (see ubi_fs.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "image/ubi_fs.h"

struct ubi_fs {
	struct ff_fs base;
	struct ff_fs *in;
	struct ff_ubi_image *img;
	size_t vol;
};

static struct ff_fs *in(struct ff_fs *fs)
{
	return ((struct ubi_fs *)fs)->in;
}

static uint64_t w_root(struct ff_fs *fs)
{
	return in(fs)->ops->root(in(fs));
}

static int w_lookup(struct ff_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *h)
{
	return in(fs)->ops->lookup(in(fs), dir, name, len, h);
}

static int w_getattr(struct ff_fs *fs, uint64_t h, struct ff_stat *st)
{
	return in(fs)->ops->getattr(in(fs), h, st);
}

static int w_readdir(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn, void *ctx)
{
	return in(fs)->ops->readdir(in(fs), dir, start, fn, ctx);
}

static ssize_t w_read(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	return in(fs)->ops->read(in(fs), h, buf, len, off);
}

static ssize_t w_read_cached(struct ff_fs *fs, uint64_t h, void *buf, size_t len, uint64_t off)
{
	if (!in(fs)->ops->read_cached)
		return -EAGAIN;
	return in(fs)->ops->read_cached(in(fs), h, buf, len, off);
}

static ssize_t w_readlink(struct ff_fs *fs, uint64_t h, char *buf, size_t cap)
{
	return in(fs)->ops->readlink(in(fs), h, buf, cap);
}

static int w_listxattr(struct ff_fs *fs, uint64_t h, ff_xattr_fn fn, void *ctx)
{
	return in(fs)->ops->listxattr(in(fs), h, fn, ctx);
}

static ssize_t w_getxattr(struct ff_fs *fs, uint64_t h, const char *name, void *buf, size_t cap)
{
	return in(fs)->ops->getxattr(in(fs), h, name, buf, cap);
}

/* The volume's file system, in the UBI image's bytes. */
static int w_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	struct ff_ubi_summary s;
	int r = in(fs)->ops->statfs(in(fs), sf);

	ff_ubi_summary(((struct ubi_fs *)fs)->img, &s);
	sf->image_bytes = s.image_bytes;
	return r;
}

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
}

static void w_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct ubi_fs *u = (struct ubi_fs *)fs;
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
	ff_info_str(fn, ctx, "volume_format", u->in->ops->format);
	ff_info_end(fn, ctx);
	u->in->ops->info(u->in, fn, ctx);
}

static long w_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct ubi_fs *u = (struct ubi_fs *)fs;
	size_t n = ff_ubi_problem_count(u->img);
	long inner;

	for (size_t i = 0; i < n; i++)
		fn(ctx, ff_ubi_problem(u->img, i));
	inner = u->in->ops->check(u->in, fn, ctx);
	return inner < 0 ? inner : inner + (long)n;
}

static void w_close(struct ff_fs *fs)
{
	struct ubi_fs *u = (struct ubi_fs *)fs;

	ff_fs_close(u->in);
	ff_ubi_close(u->img);
	free(u);
}

static const struct ff_fs_ops ubi_ops = {
	.format = "ubi",
	.root = w_root,
	.lookup = w_lookup,
	.getattr = w_getattr,
	.readdir = w_readdir,
	.read = w_read,
	.readlink = w_readlink,
	.listxattr = w_listxattr,
	.getxattr = w_getxattr,
	.statfs = w_statfs,
	.info = w_info,
	.check = w_check,
	.close = w_close,
	.read_cached = w_read_cached,
};

struct ff_fs *ff_ubi_fs_wrap(struct ff_fs *inner, struct ff_ubi_image *img, size_t vol,
			     struct ff_err *err)
{
	struct ubi_fs *u = calloc(1, sizeof(*u));

	if (!u) {
		ff_fs_close(inner);
		ff_ubi_close(img);
		ff_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	u->base = (struct ff_fs){.ops = &ubi_ops, .log = inner->log, .log_ctx = inner->log_ctx};
	u->in = inner;
	u->img = img;
	u->vol = vol;
	return &u->base;
}
