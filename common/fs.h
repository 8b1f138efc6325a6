/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one read-only file-system interface.  squashfs/ and yaffs2/ each
 * implement it; flashfs/ commands, fuse/ and bench/ only ever talk to it, so
 * nothing above this line asks which format an image is.
 *
 * Nodes are named by a 64-bit handle chosen by the format (a SquashFS inode
 * reference, a YAFFS2 object id).  A handle is stable for the life of the
 * open image, and every name of a hard-linked object yields the same handle.
 * The handle is not the inode number users see: that is ff_stat.ino.
 *
 * Every operation returns 0 (or a byte count) on success and a negative
 * errno on failure: -ENOENT, -ENOTDIR, -EISDIR, -EINVAL, -ENODATA, -ERANGE,
 * and -EIO for a damaged image.  On -EIO the implementation first reports a
 * one-line description through the log callback given at open time
 * ("inode 1234: block list points past end of image (...)").
 *
 * All operations are safe to call from several threads at once. */
#ifndef FF_COMMON_FS_H
#define FF_COMMON_FS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/info.h"
#include "common/warn.h"

struct ff_fs;

struct ff_stat {
	uint64_t ino;     /* inode number as the format stores it */
	uint32_t mode;    /* S_IFMT type bits | permission bits */
	uint32_t nlink;
	uint32_t uid, gid;
	uint64_t size;    /* bytes; symlink target length for links */
	uint64_t blocks;  /* 512-byte units actually stored (for du) */
	int64_t mtime, atime, ctime; /* seconds since the epoch */
	uint32_t rdev_major, rdev_minor;
};

struct ff_statfs {
	uint64_t block_size;   /* the format's block or chunk size */
	uint64_t total_bytes;  /* bytes the file system occupies (SquashFS: bytes_used) */
	uint64_t image_bytes;  /* the image's bytes: its file or device from the offset on */
	uint64_t inodes;       /* number of objects */
	uint32_t name_max;
};

/* Called once per entry, in the image's directory order (sorted for
 * SquashFS).  `cookie` is an opaque position: passing it back as `start`
 * resumes after this entry, which is what FUSE readdir offsets need.
 * Return non-zero to stop early; readdir then returns 0. */
typedef int (*ff_readdir_fn)(void *ctx, const char *name, size_t name_len,
			     uint64_t handle, uint32_t mode, uint64_t cookie);

/* Called with the full name ("user.comment") of each extended attribute. */
typedef int (*ff_xattr_fn)(void *ctx, const char *name, size_t name_len);
/* One extended attribute as a format's walk meets it (name with its
 * prefix); non-zero stops the walk. */
typedef int (*ff_xattr_visit_fn)(void *ctx, const char *name, size_t name_len,
				 const uint8_t *value, size_t value_len);

/* Format-specific facts for `flashfs info` are typed items in a stable
 * order (common/info.h); docs/schemas/info.schema.json names them. */

/* One problem found by a check, e.g. "inode 17: nlink 3, found 2 links". */
typedef void (*ff_problem_fn)(void *ctx, const char *what);

/* Diagnostics for damaged images (see above), as FF_WARN_DAMAGED
 * warnings; may be called from any thread. */
typedef ff_warn_fn ff_log_fn;

struct ff_fs_ops {
	const char *format; /* "squashfs", "yaffs2" */
	uint64_t (*root)(struct ff_fs *fs);
	int (*lookup)(struct ff_fs *fs, uint64_t dir, const char *name, size_t name_len,
		      uint64_t *handle);
	int (*getattr)(struct ff_fs *fs, uint64_t handle, struct ff_stat *st);
	int (*readdir)(struct ff_fs *fs, uint64_t dir, uint64_t start, ff_readdir_fn fn,
		       void *ctx);
	/* Returns bytes read (short only at end of file), or -errno. */
	ssize_t (*read)(struct ff_fs *fs, uint64_t handle, void *buf, size_t len, uint64_t off);
	/* Copies the target (not NUL-terminated when it fills cap); returns its length. */
	ssize_t (*readlink)(struct ff_fs *fs, uint64_t handle, char *buf, size_t cap);
	/* A format that can walk an inode's xattrs sets xattr_walk (0 or
	 * -errno) and takes ff_xattr_walk_list/ff_xattr_walk_get
	 * (common/xattr_query.h) as these two. */
	int (*xattr_walk)(struct ff_fs *fs, uint64_t handle, ff_xattr_visit_fn visit, void *ctx);
	int (*listxattr)(struct ff_fs *fs, uint64_t handle, ff_xattr_fn fn, void *ctx);
	/* Returns the value length; with cap 0 only the length. -ENODATA if absent. */
	ssize_t (*getxattr)(struct ff_fs *fs, uint64_t handle, const char *name, void *buf,
			    size_t cap);
	int (*statfs)(struct ff_fs *fs, struct ff_statfs *sf);
	void (*info)(struct ff_fs *fs, ff_info_fn fn, void *ctx);
	/* Walks every structure; returns the number of problems (0 = clean), or
	 * -errno when the image could not be read at all. */
	long (*check)(struct ff_fs *fs, ff_problem_fn fn, void *ctx);
	/* Optional (NULL when absent): the problems already found while
	 * opening (a YAFFS2 scan reads every page), reported as check does, so
	 * a command that reads the image can fail on damage without a walk. */
	long (*open_problems)(struct ff_fs *fs, ff_problem_fn fn, void *ctx);
	void (*close)(struct ff_fs *fs);
	/* Optional (NULL when absent): read, but only file data already
	 * decoded in memory; -EAGAIN when the read would have to read or
	 * decompress file data, so a server can answer the cheap reads at
	 * once and hand the others to threads that may wait. */
	ssize_t (*read_cached)(struct ff_fs *fs, uint64_t handle, void *buf, size_t len,
			       uint64_t off);
};

/* Every implementation embeds this as its first member. */
struct ff_fs {
	const struct ff_fs_ops *ops;
	ff_log_fn log;
	void *log_ctx;
};

/* What a caller knows of the flash an image was made for; 0 (NULL) is
 * "detect".  Each format reads what applies to it: a NAND dump's page and
 * OOB sizes (YAFFS2, UBI), the erase-block size (UBI's PEB, JFFS2's erase
 * block), the byte order, YAFFS2's tag layout. */
enum ff_byte_order { FF_ORDER_DETECT, FF_ORDER_LITTLE, FF_ORDER_BIG };
struct ff_flash_hint {
	uint32_t page_size, oob_size, pages_per_block, erase_size;
	enum ff_byte_order byte_order;
	const char *oob_layout; /* "linux", "offset0", "inband" */
	const char *tags;       /* "kernel", "classic" */
};

/* Options shared by every format's open function. */
struct ff_open_opts {
	uint64_t offset;        /* image starts this many bytes into the file */
	uint64_t cache_bytes;   /* data/metadata cache budget; 0 = default */
	ff_log_fn log;
	void *log_ctx;
	struct ff_flash_hint flash;
	/* Decoded file data a reader may prepare ahead of sequential reads in
	 * background threads, within cache_bytes; 0 = none. */
	uint64_t prefetch_bytes;
	/* Containers with volumes (UBI): the volume to open, a name or an
	 * ID; NULL = the only volume, or the one named "rootfs". */
	const char *ubi_volume;
	/* Non-zero: a directory is opened as a read-only tree of the host
	 * (image/dir_fs.h) instead of being refused. */
	int directories;
	/* Non-zero (info, check): a container whose inside cannot be opened
	 * still opens, as its own layer over an empty tree, the reason given
	 * by info and reported by check as a problem. */
	int keep_container;
};

/* How much of a read of len bytes at off a file of size bytes can give:
 * 0 at or past the end, never more than SSIZE_MAX (reads return ssize_t). */
size_t ff_read_span(uint64_t size, uint64_t off, size_t len);

/* The xattr operations of a file system that stores none: list nothing,
 * and every name is absent (-ENODATA). */
int ff_fs_no_listxattr(struct ff_fs *fs, uint64_t handle, ff_xattr_fn fn, void *ctx);
ssize_t ff_fs_no_getxattr(struct ff_fs *fs, uint64_t handle, const char *name, void *buf,
			  size_t cap);

void ff_fs_log(struct ff_fs *fs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Resolve a '/'-separated path from the root (no symlinks followed). */
int ff_fs_resolve(struct ff_fs *fs, const char *path, uint64_t *handle);
/* The same, following symlinks on the way and (follow_last) at the end, as
 * the kernel walks a path with the image as the root: an absolute target
 * starts at the image's root and ".." stops there.  -ELOOP after
 * FF_FS_MAX_SYMLINKS links, as the kernel's limit. */
#define FF_FS_MAX_SYMLINKS 40
int ff_fs_resolve_follow(struct ff_fs *fs, const char *path, int follow_last,
			 uint64_t *handle);

/* A whole directory read at once, for walks that recurse (a readdir
 * callback should not), in the format's order or, with FF_LIST_SORT, sorted
 * by name bytes.  Every walk above the formats lists directories this way. */
struct ff_dirent {
	char *name;
	size_t len;
	uint64_t handle;
	uint32_t mode;
};
struct ff_dirlist {
	struct ff_dirent *v;
	size_t n, cap;
	int oom;
};
enum {
	FF_LIST_SORT = 1,
	/* On a readdir error keep the entries read before it (a damaged
	 * directory still shows what it can): the caller frees the list
	 * whatever is returned.  Without it the list is empty on error. */
	FF_LIST_PARTIAL = 2,
};
/* 0, or -errno. */
int ff_fs_list_dir(struct ff_fs *fs, uint64_t dir, unsigned flags, struct ff_dirlist *out);
void ff_dirlist_free(struct ff_dirlist *l);
/* The order ff_fs_list_dir sorts by: name bytes, a prefix first. */
int ff_dirent_cmp(const struct ff_dirent *a, const struct ff_dirent *b);

static inline void ff_fs_close(struct ff_fs *fs)
{
	if (fs)
		fs->ops->close(fs);
}

#endif
