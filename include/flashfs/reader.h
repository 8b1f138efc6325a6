/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: reading an image.
 *
 *   struct ff_reader *r;
 *   struct ff_error err;
 *   if (ff_reader_open("rootfs.img", NULL, &r, &err))
 *           fprintf(stderr, "%s\n", err.message);
 *
 * ff_reader_open detects the format: SquashFS 4.0 (any codec), YAFFS2
 * images and raw NAND dumps (geometry, OOB layout, tags and byte order
 * detected), and either of them inside a .gz/.lzo/.xz/.zst container.  The
 * path may be a regular file or a block device, and the image may start
 * at an offset inside it (a partition in a firmware blob).
 *
 * Nodes are named by 64-bit handles: ff_reader_root() gives the root's,
 * ff_reader_lookup() and ff_reader_resolve() the others', and readdir
 * passes each entry's.  A handle stays valid while the reader is open, and
 * every name of a hard-linked file gives the same handle.  It is not the
 * inode number; that is ff_attr.ino.
 *
 * Thread safety: every function except ff_reader_close may be called on
 * one reader from many threads at once (the caches inside are shared and
 * locked).  Close it once, when no call is running. */
#ifndef FLASHFS_READER_H
#define FLASHFS_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <flashfs/error.h>

struct ff_reader;

/* What the caller knows of the flash an image was made for (a NAND dump,
 * a YAFFS2 image, UBI); every field 0 or NULL = detect it. */
enum ff_flash_order { FF_FLASH_ORDER_DETECT, FF_FLASH_ORDER_LITTLE, FF_FLASH_ORDER_BIG };
struct ff_flash_geometry {
	uint32_t page_size;       /* NAND page (YAFFS2 chunk) bytes */
	uint32_t oob_size;        /* spare bytes per page in a dump with OOB */
	uint32_t pages_per_block;
	uint32_t erase_size;      /* erase block (UBI PEB, JFFS2 erase block) */
	enum ff_flash_order byte_order;
	const char *oob_layout;   /* YAFFS2 tags: "linux", "offset0", "inband" */
	const char *tags;         /* YAFFS2 headers: "kernel", "classic" */
};

/* Options carry their own size (set by ff_reader_options_init): a program
 * built against an older, shorter struct keeps working with a newer
 * library, which gives the fields it does not know their defaults. */
struct ff_reader_options {
	size_t size;          /* set by ff_reader_options_init */
	uint64_t offset;      /* the image starts this many bytes into the file */
	uint64_t cache_bytes; /* decoded-block cache budget; 0 = the default */
	/* Called with a one-line description whenever a damaged structure is
	 * found while reading (the call that found it then fails with EIO);
	 * may be called from any thread.  NULL = not told. */
	void (*log)(void *ctx, const char *message);
	void *log_ctx;
	/* Containers with volumes (UBI): the volume to open, by name or ID
	 * ("rootfs_b", "1"); NULL = the only volume, or the one named rootfs. */
	const char *volume;
	struct ff_flash_geometry flash;
};

/* Sets opts->size to size (pass sizeof(*opts)) and every option to its
 * default: offset 0, default cache, no log, the volume and the geometry
 * detected.  (FLASHFS_0.3; the FLASHFS_0.1 form without size, for the
 * shorter struct of 0.2, stays in the library for programs built then.) */
FF_API void ff_reader_options_init(struct ff_reader_options *opts, size_t size);

/* opts may be NULL (the defaults).  Returns 0 and *reader, or -1 with err
 * ("PATH: not a SquashFS or YAFFS2 image (or a compressed one)", ...). */
FF_API int ff_reader_open(const char *path, const struct ff_reader_options *opts,
			  struct ff_reader **reader, struct ff_error *err);
/* Releases everything; reader may be NULL. */
FF_API void ff_reader_close(struct ff_reader *reader);

/* "squashfs" or "yaffs2". */
FF_API const char *ff_reader_format(const struct ff_reader *reader);

FF_API uint64_t ff_reader_root(const struct ff_reader *reader);
/* One name in directory `dir`.  ENOENT when absent, ENOTDIR when dir is
 * not a directory. */
FF_API int ff_reader_lookup(struct ff_reader *reader, uint64_t dir, const char *name,
			    uint64_t *node, struct ff_error *err);
/* A '/'-separated path from the root ("", "/" and "/a/b" alike); symbolic
 * links are not followed. */
FF_API int ff_reader_resolve(struct ff_reader *reader, const char *path, uint64_t *node,
			     struct ff_error *err);

/* What stat(2) would say. */
struct ff_attr {
	uint64_t ino;          /* inode number as the image stores it */
	uint32_t mode;         /* S_IFMT type bits | permission bits */
	uint32_t nlink;
	uint32_t uid, gid;
	uint64_t size;         /* bytes; the target's length for a symlink */
	uint64_t blocks;       /* 512-byte units stored */
	int64_t mtime, atime, ctime; /* seconds since the epoch */
	uint32_t rdev_major, rdev_minor; /* device nodes */
};

FF_API int ff_reader_stat(struct ff_reader *reader, uint64_t node, struct ff_attr *attr,
			  struct ff_error *err);

/* Called once per entry of a directory ("." and ".." are not listed), in
 * the image's order (sorted by name for SquashFS); `name` is
 * NUL-terminated and valid during the call only.  Return 0 to go on, or a
 * positive value to stop: ff_reader_readdir then returns that value. */
typedef int (*ff_dirent_fn)(void *ctx, const char *name, uint64_t node, uint32_t mode);

/* Returns 0 when every entry was passed, the callback's positive value
 * when it stopped, or -1 with err. */
FF_API int ff_reader_readdir(struct ff_reader *reader, uint64_t dir, ff_dirent_fn fn, void *ctx,
			     struct ff_error *err);

/* pread(2) on a regular file: returns the bytes read (fewer than len only
 * at the end of the file, 0 past it), or -1 with err (EISDIR, EIO...). */
FF_API ssize_t ff_reader_read(struct ff_reader *reader, uint64_t node, void *buf, size_t len,
			      uint64_t offset, struct ff_error *err);

/* Copies a symlink's target into buf and NUL-terminates it when it fits;
 * returns the target's length (compare with cap to see truncation), or -1
 * with err (EINVAL: not a symlink). */
FF_API ssize_t ff_reader_readlink(struct ff_reader *reader, uint64_t node, char *buf,
				  size_t cap, struct ff_error *err);

/* Called with each extended attribute's full name ("user.comment",
 * "security.capability"), NUL-terminated.  Return 0 to go on, or a positive
 * value to stop: ff_reader_listxattr then returns that value (else 0, or -1
 * with err). */
typedef int (*ff_xattr_name_fn)(void *ctx, const char *name);

FF_API int ff_reader_listxattr(struct ff_reader *reader, uint64_t node, ff_xattr_name_fn fn,
			       void *ctx, struct ff_error *err);
/* Copies the value of attribute `name` into buf; returns its length.  With
 * cap 0 only the length is returned.  ENODATA when the node has no such
 * attribute, ERANGE when cap is too small. */
FF_API ssize_t ff_reader_getxattr(struct ff_reader *reader, uint64_t node, const char *name,
				  void *buf, size_t cap, struct ff_error *err);

#endif
