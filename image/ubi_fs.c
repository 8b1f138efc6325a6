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

static int w_statfs(struct ff_fs *fs, struct ff_statfs *sf)
{
	return in(fs)->ops->statfs(in(fs), sf);
}

static void put_num(ff_info_fn fn, void *ctx, const char *key, unsigned long long v)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", v);
	fn(ctx, key, num, 1);
}

static const char *crc_name(enum ff_ubi_crc_state c)
{
	return c == FF_UBI_CRC_OK ? "ok" : c == FF_UBI_CRC_BAD ? "BAD" : "not checked";
}

/* One line per volume: "rootfs": dynamic, 9 LEBs reserved (...), ... */
static void put_volume(ff_info_fn fn, void *ctx, const struct ff_ubi_volume *v)
{
	char key[32], val[320];

	snprintf(key, sizeof(key), "ubi_volume_%u", v->id);
	snprintf(val, sizeof(val), "\"%s\" %s, reserved %u LEB(s) = %llu bytes, mapped %u, "
		 "used %llu bytes, alignment %u, flags %s%s%s%s, CRC %s", v->name,
		 v->type == FF_UBI_VOL_STATIC ? "static" : "dynamic", v->reserved_pebs,
		 (unsigned long long)v->reserved_pebs * v->usable_leb, v->mapped_lebs,
		 (unsigned long long)v->size, v->alignment, v->flags ? "" : "none",
		 v->flags & FF_UBI_FLAG_AUTORESIZE ? "autoresize" : "",
		 v->flags == (FF_UBI_FLAG_AUTORESIZE | FF_UBI_FLAG_SKIP_CHECK) ? "," : "",
		 v->flags & FF_UBI_FLAG_SKIP_CHECK ? "skip-check" : "", crc_name(v->crc));
	fn(ctx, key, val, 0);
}

static void w_info(struct ff_fs *fs, ff_info_fn fn, void *ctx)
{
	struct ubi_fs *u = (struct ubi_fs *)fs;
	struct ff_ubi_summary s;
	char sel[160];

	ff_ubi_summary(u->img, &s);
	fn(ctx, "container", "ubi", 0);
	put_num(fn, ctx, "ubi_peb_size", s.peb_size);
	put_num(fn, ctx, "ubi_leb_size", s.leb_size);
	put_num(fn, ctx, "ubi_vid_hdr_offset", s.vid_hdr_offs);
	put_num(fn, ctx, "ubi_data_offset", s.data_offs);
	put_num(fn, ctx, "ubi_version", s.version);
	put_num(fn, ctx, "ubi_image_seq", s.image_seq);
	if (s.oob_size) {
		put_num(fn, ctx, "ubi_nand_page_size", s.page_size);
		put_num(fn, ctx, "ubi_nand_oob_size", s.oob_size);
		put_num(fn, ctx, "ubi_nand_bad_blocks", s.marked_bad);
	}
	put_num(fn, ctx, "ubi_pebs", s.pebs);
	put_num(fn, ctx, "ubi_used_pebs", s.used_pebs);
	put_num(fn, ctx, "ubi_free_pebs", s.erased_pebs);
	put_num(fn, ctx, "ubi_bad_pebs", s.bad_pebs);
	put_num(fn, ctx, "ubi_max_ec", s.max_ec);
	put_num(fn, ctx, "ubi_problems", ff_ubi_problem_count(u->img));
	for (size_t i = 0; i < ff_ubi_volume_count(u->img); i++)
		put_volume(fn, ctx, ff_ubi_volume_at(u->img, i));
	snprintf(sel, sizeof(sel), "%u \"%s\"", ff_ubi_volume_at(u->img, u->vol)->id,
		 ff_ubi_volume_at(u->img, u->vol)->name);
	fn(ctx, "ubi_opened_volume", sel, 0);
	fn(ctx, "volume_format", u->in->ops->format, 0);
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
