/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: the tree an image is built from.
 *
 *   struct ff_fstree *t;
 *   struct ff_meta m = { .mode = 0755, .uid = 0, .gid = 0, .mtime = 0 };
 *   ff_fstree_create(NULL, &t, &err);
 *   ff_fstree_add_dir(t, "etc", &m, &err);
 *   m.mode = 0644;
 *   ff_fstree_add_file(t, "etc/hostname", &m, "box\n", 4, &err);
 *   ff_squashfs_write(t, "out.sqfs", NULL, &err);
 *   ff_fstree_destroy(t);
 *
 * Entries are named by their path in the image, '/'-separated, relative to
 * the root ("etc/hostname"; a leading "/" or "./" is ignored, ".." is
 * refused).  Missing parent directories are created (0755, root, the
 * tree's default time) and may be described later by ff_fstree_add_dir.
 * Adding a path that exists replaces that entry (a directory keeps its
 * children).  The root is "" or "/".
 *
 * The scanners add a host directory or a tar archive under the root, with
 * the metadata they find (owner, mode, times, xattrs, hard links, device
 * numbers); calls may be mixed, later ones adding or overriding.  File
 * contents are not read into memory: a file added from a path is read
 * when the image is written, and buffer and tar contents are kept in one
 * unlinked temporary file.
 *
 * The first image written from a tree finishes it (the options' rules are
 * applied, directories sorted, hard links counted); after that it cannot
 * be changed, but more images (SquashFS and YAFFS2 alike) may be written
 * from it.  A tree is used by one thread at a time. */
#ifndef FLASHFS_FSTREE_H
#define FLASHFS_FSTREE_H

#include <stddef.h>
#include <stdint.h>

#include <flashfs/error.h>

struct ff_fstree;

struct ff_fstree_options {
	int all_root;           /* every uid and gid becomes 0 */
	int64_t force_uid;      /* >= 0: every uid becomes this; -1 = keep */
	int64_t force_gid;      /* >= 0: every gid becomes this; -1 = keep */
	int64_t clamp_time;     /* >= 0: later mtimes become this (what
				   SOURCE_DATE_EPOCH means); -1 = keep */
	int no_xattrs;          /* drop every extended attribute */
	int one_file_system;    /* the directory scanner stays on one file system */
	int ignore_errors;      /* unreadable host files are skipped with a
				   warning instead of failing the scan */
	/* Called with a one-line message for each skipped file or other
	 * problem that does not stop the build.  NULL = not told. */
	void (*warn)(void *ctx, const char *message);
	void *warn_ctx;
};

/* Fills *opts with the defaults: keep everything, no callbacks. */
FF_API void ff_fstree_options_init(struct ff_fstree_options *opts);

/* opts may be NULL (the defaults). */
FF_API int ff_fstree_create(const struct ff_fstree_options *opts, struct ff_fstree **tree,
			    struct ff_error *err);
/* tree may be NULL. */
FF_API void ff_fstree_destroy(struct ff_fstree *tree);

/* An entry's metadata.  For ff_fstree_add_device, mode carries the type
 * (S_IFCHR, S_IFBLK, S_IFIFO or S_IFSOCK) with the permissions; the other
 * calls take the permission bits (07777) and set the type themselves
 * (a symlink's permissions are always 0777, as on Linux).  meta may be NULL
 * except for ff_fstree_add_device:
 * permissions 0755 for directories and 0644 otherwise, owner root, and
 * the tree's default time (clamp_time when set, else 0). */
struct ff_meta {
	uint32_t mode;
	uint32_t uid, gid;
	int64_t mtime; /* seconds since the epoch */
};

FF_API int ff_fstree_add_dir(struct ff_fstree *tree, const char *path, const struct ff_meta *meta,
			     struct ff_error *err);
/* A regular file holding data[0..len), copied now. */
FF_API int ff_fstree_add_file(struct ff_fstree *tree, const char *path, const struct ff_meta *meta,
			      const void *data, size_t len, struct ff_error *err);
/* A regular file whose contents are read from host_path when the image is
 * written (its size is taken now; a file that changes size meanwhile fails
 * the write, naming it). */
FF_API int ff_fstree_add_file_from(struct ff_fstree *tree, const char *path,
				   const struct ff_meta *meta, const char *host_path,
				   struct ff_error *err);
FF_API int ff_fstree_add_symlink(struct ff_fstree *tree, const char *path,
				 const struct ff_meta *meta, const char *target,
				 struct ff_error *err);
/* A character or block device, FIFO or socket (major and minor are used
 * for devices only). */
FF_API int ff_fstree_add_device(struct ff_fstree *tree, const char *path,
				const struct ff_meta *meta, uint32_t major, uint32_t minor,
				struct ff_error *err);
/* Another name for the existing non-directory entry `target` (a path in
 * the image, as above). */
FF_API int ff_fstree_add_hardlink(struct ff_fstree *tree, const char *path, const char *target,
				  struct ff_error *err);
/* Adds or replaces extended attribute `name` ("user.x",
 * "security.capability", "trusted.y") on an existing entry. */
FF_API int ff_fstree_set_xattr(struct ff_fstree *tree, const char *path, const char *name,
			       const void *value, size_t len, struct ff_error *err);

/* Everything under host directory `dir`, which becomes the root (its own
 * owner, mode and time too), as mkfs.squashfs DIR does. */
FF_API int ff_fstree_scan_dir(struct ff_fstree *tree, const char *dir, struct ff_error *err);
/* Every member of a tar archive (ustar, GNU and pax: long names, sparse
 * members, xattrs), plain or compressed with gzip, xz, lzo or zstd; "-"
 * reads standard input. */
FF_API int ff_fstree_scan_tar(struct ff_fstree *tree, const char *path, struct ff_error *err);

#endif
