/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The public reader (<flashfs/reader.h>): a struct ff_reader is the
 * common/fs.h file system ff_image_open gives, whose operations are
 * already safe from many threads; this file turns their negative errno
 * results into struct ff_error and NUL-terminates what they pass. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <flashfs/reader.h>

#include "common/api_error.h"
#include "common/fs.h"
#include "common/warn.h"
#include "image/image.h"

/* In the shared library both versions of the two functions that take the
 * options exist, each bound to its node by .symver (the map lists the
 * names in both nodes, as glibc's do): the new ones are defined under
 * these names there, and under their own in the static library. */
#ifdef FF_SHARED_VERSIONS
#define READER_OPTIONS_INIT ff_reader_options_init_v03
#define READER_OPEN ff_reader_open_v03
FF_API void READER_OPTIONS_INIT(struct ff_reader_options *o, size_t size);
FF_API int READER_OPEN(const char *path, const struct ff_reader_options *in,
		       struct ff_reader **out, struct ff_error *error);
__asm__(".symver ff_reader_options_init_v03, ff_reader_options_init@@FLASHFS_0.3");
__asm__(".symver ff_reader_open_v03, ff_reader_open@@FLASHFS_0.3");
#else
#define READER_OPTIONS_INIT ff_reader_options_init
#define READER_OPEN ff_reader_open
#endif

struct ff_reader {
	struct ff_fs *fs;
	void (*log)(void *ctx, const char *message);
	void *log_ctx;
};

/* The public log callback takes the text; the readers give a record. */
static void log_text(void *ctx, const struct ff_warning *w)
{
	struct ff_reader *r = ctx;
	char line[1536];

	r->log(r->log_ctx, ff_warning_text(w, line, sizeof(line)));
}

void READER_OPTIONS_INIT(struct ff_reader_options *o, size_t size)
{
	memset(o, 0, size);
	if (size >= sizeof(o->size))
		o->size = size;
}

/* The caller's options as far as its struct goes, the defaults beyond.
 * A size smaller than the member itself is no options struct: NULL. */
static int options_of(const struct ff_reader_options *in, struct ff_reader_options *o)
{
	size_t n = in && in->size < sizeof(*o) ? in->size : sizeof(*o);

	memset(o, 0, sizeof(*o));
	if (in && n < sizeof(in->size))
		return -EINVAL;
	if (in)
		memcpy(o, in, n);
	o->size = sizeof(*o);
	return 0;
}

/* The public options as the open pipeline's (common/fs.h). */
static void open_opts_of(const struct ff_reader_options *o, struct ff_open_opts *oo)
{
	const struct ff_flash_geometry *g = &o->flash;

	oo->offset = o->offset;
	oo->cache_bytes = o->cache_bytes;
	oo->ubi_volume = o->volume;
	oo->flash.page_size = g->page_size;
	oo->flash.oob_size = g->oob_size;
	oo->flash.pages_per_block = g->pages_per_block;
	oo->flash.erase_size = g->erase_size;
	oo->flash.byte_order = g->byte_order == FF_FLASH_ORDER_LITTLE ? FF_ORDER_LITTLE
			       : g->byte_order == FF_FLASH_ORDER_BIG ? FF_ORDER_BIG
								     : FF_ORDER_DETECT;
	oo->flash.oob_layout = g->oob_layout;
	oo->flash.tags = g->tags;
}

int READER_OPEN(const char *path, const struct ff_reader_options *in, struct ff_reader **out,
		struct ff_error *error)
{
	struct ff_open_opts oo = { 0 };
	struct ff_reader_options o;
	struct ff_err err = { 0, "" };
	struct ff_reader *r;

	ff_api_clear(error);
	*out = NULL;
	if (options_of(in, &o) < 0)
		return ff_api_errno(error, -EINVAL, "options: size not set "
				    "(ff_reader_options_init)");
	r = calloc(1, sizeof(*r));
	if (!r)
		return ff_api_errno(error, -ENOMEM, path);
	open_opts_of(&o, &oo);
	r->log = o.log;
	r->log_ctx = o.log_ctx;
	if (r->log) {
		oo.log = log_text;
		oo.log_ctx = r;
	}
	if (ff_image_open(path, &oo, &r->fs, &err)) {
		free(r);
		ff_err_prefix(&err, "%s", path);
		return ff_api_error(error, &err);
	}
	*out = r;
	return 0;
}

void ff_reader_close(struct ff_reader *r)
{
	if (r) {
		ff_fs_close(r->fs);
		free(r);
	}
}

const char *ff_reader_format(const struct ff_reader *r)
{
	return r->fs->ops->format;
}

uint64_t ff_reader_root(const struct ff_reader *r)
{
	return r->fs->ops->root(r->fs);
}

/* A failed operation on node `node`: "inode handle 0x...: strerror". */
static int node_error(struct ff_error *error, int neg, const char *op, uint64_t node)
{
	char what[64];

	snprintf(what, sizeof(what), "%s (node 0x%llx)", op, (unsigned long long)node);
	return ff_api_errno(error, neg, what);
}

int ff_reader_lookup(struct ff_reader *r, uint64_t dir, const char *name, uint64_t *node,
		     struct ff_error *error)
{
	int rc;

	ff_api_clear(error);
	rc = r->fs->ops->lookup(r->fs, dir, name, strlen(name), node);
	return rc < 0 ? ff_api_errno(error, rc, name) : 0;
}

int ff_reader_resolve(struct ff_reader *r, const char *path, uint64_t *node,
		      struct ff_error *error)
{
	int rc;

	ff_api_clear(error);
	rc = ff_fs_resolve(r->fs, path, node);
	return rc < 0 ? ff_api_errno(error, rc, path) : 0;
}

int ff_reader_stat(struct ff_reader *r, uint64_t node, struct ff_attr *a, struct ff_error *error)
{
	struct ff_stat st;
	int rc;

	ff_api_clear(error);
	rc = r->fs->ops->getattr(r->fs, node, &st);
	if (rc < 0)
		return node_error(error, rc, "stat", node);
	*a = (struct ff_attr){
		.ino = st.ino, .mode = st.mode, .nlink = st.nlink, .uid = st.uid, .gid = st.gid,
		.size = st.size, .blocks = st.blocks, .mtime = st.mtime, .atime = st.atime,
		.ctime = st.ctime, .rdev_major = st.rdev_major, .rdev_minor = st.rdev_minor,
	};
	return 0;
}

struct dir_ctx {
	ff_dirent_fn fn;
	void *ctx;
	int stopped;
	char name[256 + 1];
};

static int dirent_cb(void *ctx, const char *name, size_t len, uint64_t handle, uint32_t mode,
		     uint64_t cookie)
{
	struct dir_ctx *d = ctx;

	(void)cookie;
	if (len >= sizeof(d->name))
		len = sizeof(d->name) - 1; /* no format here allows longer names */
	memcpy(d->name, name, len);
	d->name[len] = '\0';
	d->stopped = d->fn(d->ctx, d->name, handle, mode);
	return d->stopped;
}

int ff_reader_readdir(struct ff_reader *r, uint64_t dir, ff_dirent_fn fn, void *ctx,
		      struct ff_error *error)
{
	struct dir_ctx d = { .fn = fn, .ctx = ctx, .stopped = 0 };
	int rc;

	ff_api_clear(error);
	rc = r->fs->ops->readdir(r->fs, dir, 0, dirent_cb, &d);
	if (rc < 0)
		return node_error(error, rc, "readdir", dir);
	return d.stopped;
}

ssize_t ff_reader_read(struct ff_reader *r, uint64_t node, void *buf, size_t len, uint64_t off,
		       struct ff_error *error)
{
	ssize_t n;

	ff_api_clear(error);
	n = r->fs->ops->read(r->fs, node, buf, len, off);
	return n < 0 ? node_error(error, (int)n, "read", node) : n;
}

ssize_t ff_reader_readlink(struct ff_reader *r, uint64_t node, char *buf, size_t cap,
			   struct ff_error *error)
{
	ssize_t n;

	ff_api_clear(error);
	n = r->fs->ops->readlink(r->fs, node, buf, cap);
	if (n < 0)
		return node_error(error, (int)n, "readlink", node);
	if ((size_t)n < cap)
		buf[n] = '\0';
	return n;
}

struct xattr_ctx {
	ff_xattr_name_fn fn;
	void *ctx;
	int stopped;
	char name[256 + 1];
};

static int xattr_cb(void *ctx, const char *name, size_t len)
{
	struct xattr_ctx *x = ctx;

	if (len >= sizeof(x->name))
		len = sizeof(x->name) - 1; /* XATTR_NAME_MAX is 255 */
	memcpy(x->name, name, len);
	x->name[len] = '\0';
	x->stopped = x->fn(x->ctx, x->name);
	return x->stopped;
}

int ff_reader_listxattr(struct ff_reader *r, uint64_t node, ff_xattr_name_fn fn, void *ctx,
			struct ff_error *error)
{
	struct xattr_ctx x = { .fn = fn, .ctx = ctx, .stopped = 0 };
	int rc;

	ff_api_clear(error);
	rc = r->fs->ops->listxattr(r->fs, node, xattr_cb, &x);
	if (rc < 0)
		return node_error(error, rc, "listxattr", node);
	return x.stopped;
}

ssize_t ff_reader_getxattr(struct ff_reader *r, uint64_t node, const char *name, void *buf,
			   size_t cap, struct ff_error *error)
{
	ssize_t n;

	ff_api_clear(error);
	n = r->fs->ops->getxattr(r->fs, node, name, buf, cap);
	return n < 0 ? ff_api_errno(error, (int)n, name) : n;
}

/* FLASHFS_0.1: the options of libflashfs 0.2, without size, volume or
 * geometry.  A program built then calls these (ld bound it to the 0.1
 * version); they read its shorter struct and open as the new
 * ff_reader_open does.  New programs get the FLASHFS_0.3 functions above. */
struct reader_options_v01 {
	uint64_t offset;
	uint64_t cache_bytes;
	void (*log)(void *ctx, const char *message);
	void *log_ctx;
};

FF_API void ff_reader_options_init_v01(struct reader_options_v01 *o);
FF_API int ff_reader_open_v01(const char *path, const struct reader_options_v01 *o,
			      struct ff_reader **out, struct ff_error *error);
#ifdef FF_SHARED_VERSIONS
__asm__(".symver ff_reader_options_init_v01, ff_reader_options_init@FLASHFS_0.1");
__asm__(".symver ff_reader_open_v01, ff_reader_open@FLASHFS_0.1");
#endif

void ff_reader_options_init_v01(struct reader_options_v01 *o)
{
	memset(o, 0, sizeof(*o));
}

int ff_reader_open_v01(const char *path, const struct reader_options_v01 *o,
		       struct ff_reader **out, struct ff_error *error)
{
	struct ff_reader_options n;

	READER_OPTIONS_INIT(&n, sizeof(n));
	if (o) {
		n.offset = o->offset;
		n.cache_bytes = o->cache_bytes;
		n.log = o->log;
		n.log_ctx = o->log_ctx;
	}
	return READER_OPEN(path, &n, out, error);
}
