/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* mkfs.squashfs' build step (squashfs_build.h). */
#include "mkfs/squashfs_build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "squashfs/reader.h"

struct ff_comp *ff_sqfs_args_comp(const struct ff_sqfs_args *a, struct ff_err *err)
{
	struct ff_comp *comp = ff_comp_new(a->comp_name, a->block_size, err);

	if (!comp) {
		ff_err_prefix(err, "--compressor");
		return NULL;
	}
	for (size_t i = 0; i < a->comp_opts.n; i++)
		if (ff_comp_set_option_str(comp, a->comp_opts.v[i], err) < 0) {
			ff_err_prefix(err, "--comp-opt '%s'", a->comp_opts.v[i]);
			ff_comp_free(comp);
			return NULL;
		}
	return comp;
}

/* The old image goes in after the sources, so the tree's size before it
 * is what the sources appended (the root aside). */
static int add_old_image(void *ctx, struct ff_tree *tree, struct ff_err *err)
{
	struct ff_sqfs_args *a = ctx;
	uint32_t before = ff_tree_count(tree);

	if (ff_tree_add_image(tree, a->old, err) < 0)
		return -1;
	a->appended = before - 1;
	a->old_entries = ff_tree_count(tree) - before;
	return 0;
}

/* ff_sqfs_append_open appends to regular files only; a block device that
 * holds an image is not replaced silently either (mksquashfs would append). */
static int blockdev_holds_squashfs(const char *path)
{
	uint8_t magic[4];
	struct stat st;
	int fd, holds = 0;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		holds = pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) &&
			ff_squashfs_probe(magic, sizeof(magic));
		close(fd);
	}
	return holds;
}

/* Append, mksquashfs' default: an existing SquashFS IMAGE keeps its tree,
 * compressor and block size, and the sources are added at its root. */
static int open_append(struct ff_sqfs_args *a, const struct ff_sqfs_build_hooks *h,
		       const struct ff_comp *comp, struct ff_fs **old, struct ff_err *err)
{
	int r = a->noappend ? 0 : ff_sqfs_append_open(a->image, old, err);

	if (r == 0 && !a->noappend && blockdev_holds_squashfs(a->image))
		r = ff_err_set(err, EINVAL, "%s: a block device holding a SquashFS image: appending "
			       "in place would overwrite the old tables it reads; give --noappend "
			       "to replace it", a->image);
	if (r > 0)
		r = ff_sqfs_append_check(*old, a->comp_given ? comp : NULL,
					 a->block_given ? a->block_size : 0, err);
	if (r < 0) {
		ff_fs_close(*old);
		*old = NULL;
		return -1;
	}
	if (*old) {
		a->block_size = ff_sqfs_append_block_size(*old);
		a->appending = 1;
		a->old = *old;
		a->src.before_finish = add_old_image;
		a->src.before_finish_ctx = a;
		if (h->appending)
			h->appending(h->ctx, *old, a->block_size);
	}
	return 0;
}

static int write_image(const struct ff_sqfs_args *a, const struct ff_sqfs_build_hooks *h,
		       const struct ff_comp *comp, const struct ff_tree *tree,
		       struct ff_fs *old, struct ff_err *err)
{
	struct ff_sqfs_write_opts o = {
		.comp = comp, .block_size = a->block_size, .jobs = a->jobs,
		.mkfs_time = a->mkfs_time, .no_fragments = a->no_fragments,
		.always_fragments = a->always_fragments, .no_dedup = a->no_dedup,
		.no_exports = a->no_exports, .no_sparse = a->no_sparse,
		.no_xattrs = a->src.tree.no_xattrs,
		.raw_inodes = a->raw_inodes, .raw_ids = a->raw_ids, .raw_data = a->raw_data,
		.raw_fragments = a->raw_fragments, .raw_xattrs = a->raw_xattrs,
		.offset = a->offset, .no_pad = a->no_pad,
		.warn = h->warn, .progress = h->progress, .cb_ctx = h->ctx,
		.tmp_path_slot = h->tmp_path_slot, .keep = h->keep, .append = old,
	};
	struct ff_sqfs_write_stats st;

	if (ff_sqfs_write(tree, &o, a->image, &st, err) < 0)
		return FF_SQFS_ARGS_ERROR;
	if (h->written)
		h->written(h->ctx, comp, &st);
	return 0;
}

/* --mkfs-time inode (mksquashfs -repro): the image time is the newest
 * inode time, known only once the tree is finished. */
static void mkfs_time_from_inodes(struct ff_sqfs_args *a, const struct ff_tree *tree)
{
	if (a->mkfs_time != FF_SQFS_MKFS_TIME_INODE)
		return;
	a->mkfs_time = 0;
	for (struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n))
		a->mkfs_time = n->mtime > a->mkfs_time ? n->mtime : a->mkfs_time;
}

/* The tree and the image, once the compressor and the old image are open. */
static int build_write(struct ff_sqfs_args *a, const struct ff_sqfs_build_hooks *h,
		       const struct ff_comp *comp, struct ff_fs *old, struct ff_err *err)
{
	struct ff_tree *tree;
	int ret;

	a->src.warn = h->warn;
	a->src.log = h->log;
	a->src.warn_ctx = h->ctx;
	tree = ff_source_args_build(&a->src, err);
	if (!tree)
		return FF_SQFS_ARGS_ERROR;
	mkfs_time_from_inodes(a, tree);
	ret = h->tree ? h->tree(h->ctx, tree) : 0;
	if (ret == 0)
		ret = write_image(a, h, old ? ff_sqfs_append_comp(old) : comp, tree, old, err);
	ff_tree_free(tree);
	return ret;
}

int ff_sqfs_args_build(struct ff_sqfs_args *a, const struct ff_sqfs_build_hooks *h,
		       struct ff_err *err)
{
	struct ff_comp *comp = ff_sqfs_args_comp(a, err);
	struct ff_fs *old = NULL;
	int ret;

	if (!comp)
		return FF_SQFS_ARGS_USAGE;
	if (open_append(a, h, comp, &old, err) < 0) {
		ff_comp_free(comp);
		return FF_SQFS_ARGS_ERROR;
	}
	if (ff_comp_kernel_unsupported(comp) && h->warn)
		ff_warnf(h->warn, h->ctx, FF_WARN_NOTE, NULL, "%s",
			 "the Linux kernel cannot mount images compressed with this codec "
			 "(unsquashfs and flashfs can read them)");
	ret = build_write(a, h, comp, old, err);
	ff_fs_close(old);
	a->old = NULL;
	ff_comp_free(comp);
	return ret;
}

int ff_sqfs_info_write(const struct ff_tree *tree, FILE *f)
{
	char path[4096];

	for (struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n)) {
		if (ff_node_path(n, path, sizeof(path)) < 0)
			snprintf(path, sizeof(path), "%s", ff_node_name(n));
		fprintf(f, "/%s: mode %06o, uid %u, gid %u, mtime %lld, size %llu%s\n", path,
			n->mode, n->uid, n->gid, (long long)n->mtime, (unsigned long long)n->size,
			ff_node_link(n) ? " (hard link)" : "");
	}
	return ferror(f) ? -1 : 0;
}
