/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The source-tree model shared by mkfs.squashfs and mkfs.yaffs2.
 *
 * A tree is filled from a host directory, a tar stream, spec files and
 * mksquashfs pseudo files (in that order; later sources add or override),
 * then ff_tree_finish() applies the global rules (--all-root, --force-uid,
 * SOURCE_DATE_EPOCH clamping, excludes), sorts every directory by unsigned
 * bytes, counts links and numbers the nodes.  After finish the tree is
 * read-only and the builders walk it.
 *
 * File contents are never held in memory: a node names where to read them
 * (a host file, or a range of the tree's spool file for tar input), and
 * ff_tree_open_data() gives a reader for it. */
#ifndef FF_TREE_TREE_H
#define FF_TREE_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/error.h"
#include "common/warn.h"

struct ff_fs;

struct ff_xattr {
	char *name;      /* full name: "user.x", "security.capability" */
	uint8_t *value;
	uint32_t len;
};

struct ff_node {
	/* Pointers, then 64-, 32-, 16- and 8-bit fields, then flags: no
	 * padding (64 bytes on LP64).  The name is not a field: it follows
	 * the node (ff_node_name).  A ten-million-entry tar holds ten million of
	 * these, packed with their names in slabs (tree.c). */
	struct ff_node *parent; /* NULL for the root */
	/* One of these, by type: 16 bytes less a node, 153 MiB at ten
	 * million tar members (issue 33).  Read children only of a
	 * directory, target only of a symlink, rdev only of a device;
	 * ff_node_reset clears it when the type changes. */
	union {
		struct ff_node **children; /* directories: after finish, sorted
					      by memcmp of names */
		char *target;           /* symlinks: the target */
		struct {                /* character and block devices */
			uint32_t rdev_major, rdev_minor;
		};
	};
	/* Content source (regular files): one of these, which one src_kind
	 * (tree/ private) says.  A union: four separate fields were 24 bytes
	 * more per node, 230 MiB at ten million tar members (issue 33).
	 * Builders read a file through ff_tree_open_data and ask
	 * ff_node_image for an appended image's object. */
	union {
		char *src_path;       /* a host path to read (NULL for a
					 src_in_dir file: ff_node_host_path);
					 also a scanned directory's host path */
		const uint8_t *mem;   /* the caller's bytes (ff_tree_set_mem) */
		uint64_t spool_off;   /* an offset in the tree's spool (tar,
					 pseudo-file and API contents) */
		uint64_t img_handle;  /* the object in the tree's appended image
					 (regular files only) */
	};

	int64_t mtime;
	uint64_t size;          /* regular files: content length */

	uint32_t n_children;
	uint32_t uid, gid;
	uint32_t index;         /* after finish: 1..n in depth-first pre-order */
	/* builder's scratch (one writer at a time): a number, 0 when unset;
	 * the builders keep indices here, never pointers (4 bytes, not 8) */
	uint32_t priv;
	/* As small as they can be (issue 33): the --sort priority lives in
	 * the tree (ff_tree_sort_priority), nearly every node has none; the
	 * link count is computed (ff_node_nlink), so that the node is 64
	 * bytes and a node with a short name takes 80, not 88. */
	uint16_t mode;          /* S_IFMT | permissions (07777): 16 bits */
	uint8_t name_len;       /* at most FF_NAME_MAX (255) */

	/* A host file without holes (st_blocks * 512 >= size).  Its all-zero
	 * blocks are still stored sparse, but like mksquashfs the inode then
	 * reports no sparse bytes (and so stays a basic inode). */
	unsigned dense : 1;
	/* tree/ private: a scanned file whose host path is its parent's
	 * src_path, "/" and its name (src_path is then NULL): a million
	 * "dir/file" copies would cost 48 MB.  Renames, hard links and new
	 * sources give the node its own src_path first. */
	unsigned src_in_dir : 1;
	/* tree/ private: this directory's children are not in the tree's
	 * (parent, name) map yet (a directory scan adds them unindexed; the
	 * first lookup indexes them). */
	unsigned unindexed : 1;
	/* tree/ private: allocated in one of the tree's node slabs, freed
	 * with the tree, not on its own. */
	unsigned in_slab : 1;
	/* tree/ private: which member of the content union is meant
	 * (enum ff_src_kind in tree_priv.h; 0, the spool, for a new node). */
	unsigned src_kind : 2;
	/* tree/ private: the bytes after the node hold a pointer to its
	 * struct ff_node_ext (a renamed node, a hard link, xattrs) */
	unsigned has_ext : 1;
};

/* What few nodes have, kept outside the node: a tar member has no hard
 * link, no xattrs and keeps its name, and the two pointers were 16 bytes
 * of every node, 153 MiB at ten million tar members (issue 33).  Made on
 * the first need (tree/), it takes the place of the name after the node
 * and holds a copy of it.  Read through the accessors below. */
struct ff_node_ext {
	char *name;              /* the node's name, one component */
	/* Hard links: every extra name points at the primary node, which
	 * carries the metadata and content; NULL on the primary itself. */
	struct ff_node *link;
	struct ff_xattr *xattrs; /* after finish: sorted by name */
	uint16_t n_xattrs;       /* an inode's xattrs fit in 64 KiB anyway */
	/* On a hard-link group's primary, after finish: the group's names
	 * (0 elsewhere: one name).  Not in the node: few nodes have links. */
	uint32_t nlink;
};

/* n's out-of-node part, or NULL when it has none. */
static inline struct ff_node_ext *ff_node_ext_of(const struct ff_node *n)
{
	struct ff_node_ext *e;

	if (!n->has_ext)
		return NULL;
	memcpy(&e, (const void *)(n + 1), sizeof(e));
	return e;
}

/* The primary node n is an extra name of (a hard link), or NULL. */
static inline struct ff_node *ff_node_link(const struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);

	return e ? e->link : NULL;
}

/* The node carrying n's metadata and content: its primary, or n. */
static inline struct ff_node *ff_node_primary(const struct ff_node *n)
{
	struct ff_node *l = ff_node_link(n);

	return l ? l : (struct ff_node *)(uintptr_t)n;
}

/* n's xattrs (ff_node_n_xattrs of them; after finish sorted by name). */
static inline struct ff_xattr *ff_node_xattrs(const struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);

	return e ? e->xattrs : NULL;
}

static inline uint32_t ff_node_n_xattrs(const struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);

	return e ? e->n_xattrs : 0;
}

/* n's link count (after finish): for a directory 2 and one for each
 * subdirectory's "..", counted here (each builder asks once an inode, so
 * the counts cost one pass over the children, and the node no word); for
 * anything else its hard-link group's names. */
static inline uint32_t ff_node_nlink(const struct ff_node *n)
{
	const struct ff_node *p = ff_node_primary(n);
	struct ff_node_ext *e;
	uint32_t k = 2;

	if (S_ISDIR(p->mode)) {
		for (uint32_t i = 0; i < p->n_children; i++)
			k += S_ISDIR(p->children[i]->mode);
		return k;
	}
	e = ff_node_ext_of(p);
	return e && e->nlink ? e->nlink : 1;
}

/* n's name, one component ("" for the root).  Stored just after the node,
 * in the same allocation (at least 8 bytes there), or, for a node with an
 * ff_node_ext (renamed, linked, xattrs), there: no 8-byte pointer in every
 * node (76 MiB at ten million tar members, issue 33).  Not to be written
 * through. */
static inline char *ff_node_name(const struct ff_node *n)
{
	struct ff_node_ext *e = ff_node_ext_of(n);

	return e ? e->name : (char *)(uintptr_t)(n + 1);
}

struct ff_actions;

/* Attributes for directories no source describes (mksquashfs -default-mode,
 * -default-uid, -default-gid for tar; -pd for pseudo definitions): each is
 * used when its FF_DEF_* bit is in `set`, else 0755, 0:0 and the default
 * time. */
struct ff_dir_defaults {
	unsigned set;
	uint32_t mode;          /* permission bits */
	uint32_t uid, gid;
	int64_t mtime;
};

enum { FF_DEF_MODE = 1, FF_DEF_UID = 2, FF_DEF_GID = 4, FF_DEF_TIME = 8 };

struct ff_tree_opts {
	int all_root;           /* uid = gid = 0 for everything */
	int64_t force_uid;      /* -1 = keep */
	int64_t force_gid;      /* -1 = keep */
	int64_t all_time;       /* -1 = keep; else every mtime = this */
	int64_t clamp_time;     /* -1 = none; else mtimes newer than this are clamped
				   (SOURCE_DATE_EPOCH) */
	/* mksquashfs -root-uid/-root-gid/-root-time (each used when its
	 * FF_ROOT_* bit is in root_set) and -root-mode, -force-file-mode,
	 * -force-dir-mode (mode expressions, NULL keep). */
	int64_t root_uid, root_gid, root_time;
	unsigned root_set;
	const char *root_mode, *force_file_mode, *force_dir_mode;
	uint32_t uid_gid_offset;  /* added to every uid and gid */
	int no_hardlinks;       /* each name of a hard-linked file is its own file */
	int exclude_mode;       /* enum ff_exclude_mode */
	int no_xattrs;
	/* mksquashfs -xattrs-exclude / -xattrs-include: extended regexes on
	 * xattr names (NULL: none) */
	const char *xattr_exclude, *xattr_include;
	/* 1 (-one-file-system): a mount point is an empty directory, a file
	 * on another filesystem is left out; 2 (-one-file-system-x): a mount
	 * point is left out too. */
	int one_file_system;
	/* -max-depth N (when has_max_depth): directories deeper than N levels
	 * are kept, empty; the source directory is level 1. */
	int has_max_depth;
	uint32_t max_depth;
	/* -xattrs-add: "NAME=VALUE" strings (the caller keeps them), added to
	 * every entry, user.* ones to regular files and directories only. */
	const char *const *xattrs_add;
	size_t n_xattrs_add;
	struct ff_dir_defaults tar_dirs, pseudo_dirs;
	/* -pseudo-override: pseudo definitions' owners win over --all-root,
	 * --force-uid and --force-gid. */
	int pseudo_override;
	int ignore_errors;      /* unreadable files: warn through `warn`, skip */
	const char *const *excludes; /* NULL-terminated glob patterns, matched
				       against the path relative to the source */
	size_t n_excludes;
	ff_warn_fn warn;
	void *warn_ctx;
	const struct ff_actions *actions; /* mksquashfs actions (action.h), or NULL */
	void (*log)(void *ctx, const char *msg); /* -log-action lines */
	void *log_ctx;
};

enum { FF_ROOT_UID = 1, FF_ROOT_GID = 2, FF_ROOT_TIME = 4 };

/* How -e/-ef patterns match.  The default is glob patterns on the path plus,
 * as mksquashfs without -wildcards, a pattern naming an existing file also
 * excludes every other name of that inode (its hard links); "/", "./" and
 * "../" patterns name a host path, others one below the source. */
enum ff_exclude_mode {
	FF_EXCLUDE_DEFAULT,
	FF_EXCLUDE_WILDCARDS,   /* -wildcards: globs only */
	FF_EXCLUDE_REGEX,       /* -regex: per-component extended regexes */
};

struct ff_tree;

struct ff_tree *ff_tree_new(const struct ff_tree_opts *opts, struct ff_err *err);
void ff_tree_free(struct ff_tree *tree);

/* Sources.  Errors name the path or "FILE:LINE" and the problem. */
int ff_tree_add_dir(struct ff_tree *tree, const char *host_dir, struct ff_err *err);
/* One root entry `name` from a host path (a directory with its contents, or
 * any other file): mksquashfs with several sources, or -keep-as-directory.
 * Excludes are matched against paths starting with the path's own name. */
int ff_tree_add_entry(struct ff_tree *tree, const char *path, const char *name,
		      struct ff_err *err);
/* mksquashfs -no-strip (recurse = 1) and -cpiostyle (recurse = 0): every
 * host path next() gives (1 a path in *path, 0 the end, -1 error) becomes
 * the entry at that same path, leading "/", "./" and "../" dropped; its
 * leading directories are made from the host's.  With recurse a
 * directory's contents follow it; without, only what is listed goes in.
 * When every path starts from the same host directory the root takes that
 * directory's attributes. */
int ff_tree_add_paths(struct ff_tree *tree, int (*next)(void *ctx, const char **path,
							 struct ff_err *err),
		      void *ctx, int recurse, struct ff_err *err);
/* path "-" reads stdin; gzip/xz/zstd/bzip2-less containers are detected. */
int ff_tree_add_tar(struct ff_tree *tree, const char *path, struct ff_err *err);
int ff_tree_add_spec(struct ff_tree *tree, const char *spec_path, struct ff_err *err);
/* A makedevs device table (Buildroot's device_table.txt, mkfs.jffs2 -D):
 * NAME TYPE MODE UID GID MAJOR MINOR START INC COUNT lines (device_table.c). */
int ff_tree_add_device_table(struct ff_tree *tree, const char *path, struct ff_err *err);
/* mksquashfs -pf pseudo-file definitions, and -p single lines. */
int ff_tree_add_pseudo_file(struct ff_tree *tree, const char *path, struct ff_err *err);
int ff_tree_add_pseudo_line(struct ff_tree *tree, const char *line, struct ff_err *err);
/* Append (mksquashfs without -noappend): every object of the open image fs
 * goes under the root, named as in the image; an entry already at the root
 * with the name of one of the image's root entries is renamed NAME_1 (or
 * NAME_2, ...: the first name not taken), as mksquashfs renames the new
 * entry.  The root keeps its own attributes; the image's objects are not
 * changed by --all-root, --force-uid/gid, --all-time or SOURCE_DATE_EPOCH
 * (mksquashfs leaves them too).  fs must stay open until the tree is
 * freed.  Call before ff_tree_finish. */
int ff_tree_add_image(struct ff_tree *tree, struct ff_fs *fs, struct ff_err *err);
/* --sort FILE: "path priority" lines (mksquashfs syntax). */
int ff_tree_load_sort(struct ff_tree *tree, const char *path, struct ff_err *err);

int ff_tree_finish(struct ff_tree *tree, struct ff_err *err);

struct ff_node *ff_tree_root(const struct ff_tree *tree);
uint32_t ff_tree_count(const struct ff_tree *tree);   /* nodes incl. root */
uint64_t ff_tree_data_bytes(const struct ff_tree *tree); /* sum of file sizes */
/* The host file a node's content is read from: n->src_path, or (src_in_dir)
 * the path put together in buf; NULL when there is none or it does not fit. */
const char *ff_node_host_path(const struct ff_node *n, char *buf, size_t cap);
/* The appended image (ff_tree_add_image) whose object n is, its
 * img_handle the object for a regular file; NULL for a node from any
 * other source. */
struct ff_fs *ff_node_image(const struct ff_tree *tree, const struct ff_node *n);
/* n's --sort priority (ff_tree_load_sort), -32768..32767, higher placed
 * first; 0 for a node no sort file names. */
int ff_tree_sort_priority(const struct ff_tree *tree, const struct ff_node *n);
/* Full path of a node relative to the root, "/"-joined, no leading slash. */
int ff_node_path(const struct ff_node *n, char *buf, size_t cap);
/* Nodes in pre-order (root first, children in sorted order). */
struct ff_node *ff_tree_next(const struct ff_tree *tree, const struct ff_node *n);

/* A tree the caller fills in, entry by entry, instead of (or besides)
 * scanning a source.  PATH is "/"-separated from the root ("" is the root);
 * missing parent directories are created (0755, owned by root) and may be
 * described later.  The entry's metadata (uid, gid, mtime, rdev) are the
 * node's fields, set directly.  Entries must be added before
 * ff_tree_finish. */
struct ff_node *ff_tree_put_entry(struct ff_tree *tree, const char *path, uint32_t mode,
				  struct ff_err *err);
/* Another name for the existing entry TARGET. */
struct ff_node *ff_tree_put_hardlink(struct ff_tree *tree, const char *path,
				     const char *target, struct ff_err *err);
/* The entry at PATH (the primary, for a hard link); NULL with err. */
struct ff_node *ff_tree_find_entry(struct ff_tree *tree, const char *path, struct ff_err *err);
int ff_tree_set_symlink(struct ff_node *n, const char *target, struct ff_err *err);
/* Regular file content: LEN bytes at BUF, which the caller keeps alive and
 * unchanged until the last builder using the tree is done. */
int ff_tree_set_mem(struct ff_node *n, const void *buf, uint64_t len, struct ff_err *err);
/* Regular file content read from a host file when the image is built. */
int ff_tree_set_host_file(struct ff_node *n, const char *host_path, uint64_t len,
			  struct ff_err *err);
int ff_tree_set_xattr(struct ff_node *n, const char *name, const void *value, size_t len,
		      struct ff_err *err);

/* chmod-style mode expressions ("0755", "u+rwx,go-w", X s t included):
 * apply to *mode (permission bits only); -1 when malformed. */
int ff_mode_expr_apply(const char *expr, uint32_t *mode);
/* The same on a node's mode, which is 16 bits (the type and 07777). */
static inline int ff_node_mode_apply(const char *expr, struct ff_node *n)
{
	uint32_t m = n->mode;
	int r = ff_mode_expr_apply(expr, &m);

	n->mode = (uint16_t)m;
	return r;
}
/* Checks an expression; the error names opt and the text. */
int ff_mode_expr_check(const char *opt, const char *expr, struct ff_err *err);

/* Checks that re_text compiles as an extended regular expression. */
int ff_xattr_regex_check(const char *opt, const char *re_text, struct ff_err *err);

/* The longest name of one entry. */
#define FF_NAME_MAX 255

/* The child of dir named by the len bytes at name (one component), or NULL. */
struct ff_node *ff_tree_child(struct ff_tree *tree, struct ff_node *dir,
			      const char *name, size_t len);

/* line_file.c: call fn for every line of a text file (or "-" = stdin), the
 * newline stripped; an error from fn is prefixed with "FILE:LINE".  For
 * the tree's spec, pseudo, sort and action files and the mkfs programs'
 * exclude files. */
typedef int (*ff_line_fn)(void *ctx, const char *line, unsigned lineno, struct ff_err *err);
int ff_lines_each(const char *path, ff_line_fn fn, void *ctx, struct ff_err *err);

/* Reading content: pread-style, bounded memory. */
struct ff_data;
struct ff_data *ff_tree_open_data(const struct ff_tree *tree, const struct ff_node *n,
				  struct ff_err *err);
/* Returns bytes read; a short read before n->size means the file shrank
 * since it was scanned and is reported as an error naming the path. */
ssize_t ff_data_pread(struct ff_data *d, void *buf, size_t len, uint64_t off,
		      struct ff_err *err);
void ff_data_close(struct ff_data *d);

#endif
