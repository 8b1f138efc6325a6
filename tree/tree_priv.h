/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Private to tree/: the tree's internals shared by its sources (directory
 * scan, tar, spec, pseudo and sort files).  Builders use tree.h only. */
#ifndef FF_TREE_TREE_PRIV_H
#define FF_TREE_TREE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "common/hmap.h"
#include "common/vec.h"
#include "tree/action.h"
#include "tree/arg_value.h"
#include "tree/spool.h"
#include "tree/tree.h"

struct ff_tree {
	struct ff_tree_opts opts;
	char **excludes;          /* our own copies of opts->excludes */
	size_t n_excludes;
	struct ff_exclude_re *exclude_re; /* -regex: n_excludes, compiled */
	struct ff_node *root;
	/* where ff_tree_add_child's nodes live (struct ff_node_slab *, in
	 * the order made; each slab knows its number) */
	struct ff_vec slabs;
	/* (parent, name) -> node while building: a set of ids keyed by a
	 * hash of the parent's address and the name (4 bytes a slot), the
	 * ids indexing `by_id`.  The names stay in the nodes: the byte-string
	 * map it replaces held a 40-byte slot and a heap copy of every key,
	 * 99 of the 277 bytes a tar member cost (issue 33). */
	struct ff_hset children;
	/* uint32_t, the set's ids: each node's place, its slab's number and
	 * its 8-byte offset there (tree.c, node_place): half a pointer, 4
	 * bytes a tar member less at the end of the tar, the build's peak */
	struct ff_vec by_id;
	uint32_t count;
	uint64_t data_bytes;
	/* Attributes for the directories the source being read implies
	 * (opts.tar_dirs while a tar is read, opts.pseudo_dirs for pseudo
	 * definitions), or NULL: 0755, root, the default time. */
	const struct ff_dir_defaults *implied;
	/* -pseudo-override: the owners pseudo definitions gave, restored
	 * after --all-root/--force-uid/--force-gid (attr_opts.c). */
	struct ff_vec kept;         /* struct ff_owner_keep, definition order */
	/* The image ff_tree_add_image copied (its nodes have src_kind
	 * FF_SRC_IMG), or NULL: one per tree, so a node needs no pointer. */
	struct ff_fs *img;
	/* --sort priorities (sort_file.c): node address -> int16 priority,
	 * only for the nodes a sort file names; a node field was 2 bytes in
	 * every node of every tree (issue 33) */
	struct ff_hmap sort_prio;
	struct ff_spool *spool;   /* NULL until a source needs it */
	int finished;
	int numbered;             /* every node's index is its pre-order number */
};

/* Which member of a node's content union is meant (ff_node.src_kind). */
enum ff_src_kind {
	FF_SRC_SPOOL,   /* spool_off (a new node: 0, nothing written) */
	FF_SRC_HOST,    /* src_path (or src_in_dir); a scanned directory's path */
	FF_SRC_MEM,     /* mem */
	FF_SRC_IMG,     /* from tree->img: img_handle for a regular file */
};

/* Forget n's content source (frees an owned src_path); the spool, 0. */
void ff_node_clear_src(struct ff_node *n);

/* tree.c: node creation (lookup, ff_tree_child, is in tree.h).  Names
 * are one component. */
struct ff_node *ff_tree_add_child(struct ff_tree *tree, struct ff_node *dir,
				  const char *name, size_t len, uint32_t mode,
				  struct ff_err *err);
/* Gives the child n of the root (or any directory) a new name. */
int ff_tree_rename(struct ff_tree *tree, struct ff_node *n, const char *name, size_t len,
		   struct ff_err *err);
/* Frees the (parent, name) set (finish: no more lookups). */
void ff_tree_drop_index(struct ff_tree *tree);
/* Look a "/"-separated path up from the root ("" or "/" is the root). */
struct ff_node *ff_tree_lookup(struct ff_tree *tree, const char *path);
/* Mtime for directories nobody described (implied parents, a bare root). */
int64_t ff_tree_default_mtime(const struct ff_tree *tree);
/* A warning through the tree's callback; path is the entry, or NULL. */
void ff_tree_warn(const struct ff_tree *tree, enum ff_warn_kind kind, const char *path,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int ff_tree_check_open(const struct ff_tree *tree, struct ff_err *err);
/* qsort comparator on struct ff_node *: unsigned bytes, shorter first. */
int ff_node_name_cmp(const void *a, const void *b);

/* Free a node and everything below it (not unlinked from its parent). */
void ff_tree_free_subtree(struct ff_node *n);
/* finish.c: `to` (another name of the hard-link group) becomes the
 * primary: it takes from's metadata and content, and from links to it;
 * -1 when out of memory (from needs its struct ff_node_ext). */
int ff_node_take_content(struct ff_node *to, struct ff_node *from);

/* node.c: per-node content changes. */
/* Forget type-specific content (target, source, link, xattrs) before a node
 * is redefined; a directory with children may only stay a directory. */
int ff_node_reset(struct ff_node *n, uint32_t new_mode, struct ff_err *err);
int ff_node_set_target(struct ff_node *n, const char *target, size_t len, struct ff_err *err);
int ff_node_set_src(struct ff_node *n, const char *path, struct ff_err *err);
/* A src_in_dir node gets its own src_path (before a rename or a hard link
 * could make the parent's path and its name the wrong file). */
int ff_node_own_src(struct ff_node *n, struct ff_err *err);
/* Add or replace one extended attribute. */
int ff_node_set_xattr(struct ff_node *n, const char *name, const void *value, size_t len,
		      struct ff_err *err);
/* Make n another name of `target` (resolved to its primary). */
int ff_node_make_link(struct ff_node *n, struct ff_node *target, struct ff_err *err);
void ff_node_free(struct ff_node *n);
void ff_node_free_xattrs(struct ff_node *n);
/* n's struct ff_node_ext, made (with a copy of its name) if it has none;
 * NULL when out of memory. */
struct ff_node_ext *ff_node_ext(struct ff_node *n);
/* Makes n an extra name of primary, or (NULL) its own; -1 when out of
 * memory (never for NULL). */
int ff_node_set_link(struct ff_node *n, struct ff_node *primary);
/* Frees n's struct ff_node_ext (its name copy and xattr table, not the
 * xattrs: ff_node_free_xattrs); a slab node is left with an empty name. */
void ff_node_free_ext(struct ff_node *n);

/* path.c: normalise an archive/spec path in place: strips "./", leading and
 * doubled "/", trailing "/"; rejects ".." and over-long components.  Returns
 * 0, or -1 with err naming the problem (the caller adds the location). */
int ff_path_normalise(char *path, struct ff_err *err);
/* Find or create the parent directory of a normalised path; `create`
 * makes missing directories (mode 0755, root).  *base gets the last
 * component. */
struct ff_node *ff_tree_parent_of(struct ff_tree *tree, const char *path, int create,
				  const char **base, struct ff_err *err);

/* Find or create a node of type `mode`; an existing directory stays (its
 * children kept), anything else is reset to the new type. */
struct ff_node *ff_tree_put_child(struct ff_tree *tree, struct ff_node *dir, const char *name,
				  size_t len, uint32_t mode, struct ff_err *err);
/* The same by normalised path, creating missing parents ("" is the root). */
struct ff_node *ff_tree_put_path(struct ff_tree *tree, const char *path, uint32_t mode,
				 struct ff_err *err);
/* Make `path` another name of the existing image path `target` (raw text,
 * normalised here). */
struct ff_node *ff_tree_put_link(struct ff_tree *tree, const char *path, const char *target,
				 struct ff_err *err);

/* attr_opts.c: mksquashfs options on attributes the sources leave open. */
struct ff_owner_keep {
	char *path;
	uint32_t uid, gid;
};
/* A directory made because a path needs it: tree->implied's attributes. */
void ff_tree_implied_dir(const struct ff_tree *tree, struct ff_node *n);
/* -pseudo-override: remember the owner a pseudo definition gave path. */
int ff_tree_keep_owner(struct ff_tree *tree, const char *path, uint32_t uid, uint32_t gid,
		       struct ff_err *err);
/* At finish, after the global rules: the kept owners again. */
void ff_tree_restore_owners(struct ff_tree *tree);
void ff_tree_free_owners(struct ff_tree *tree);
/* -xattrs-add on every entry (user.* only on files and directories). */
int ff_tree_xattrs_add(struct ff_tree *tree, struct ff_err *err);

/* exclude.c: mksquashfs -e semantics on a path relative to the source. */
int ff_tree_excluded(const struct ff_tree *tree, const char *rel);
/* -regex patterns: compiles each part once, for every path the scan
 * checks (0), or -1 and why. */
int ff_tree_compile_excludes(struct ff_tree *tree, struct ff_err *err);
void ff_tree_free_excludes(struct ff_tree *tree);

/* tree.c: the tree's spool (spool.h), made when a source first needs
 * it, or NULL and err. */
struct ff_spool *ff_tree_spool(struct ff_tree *tree, struct ff_err *err);

/* xattr_value.c: "0x..." hex or plain text for spec and pseudo files. */
int ff_xattr_parse_value(const char *text, uint8_t **value, uint32_t *len, struct ff_err *err);
/* "NAMESPACE.NAME=VALUE" onto a node. */
int ff_node_set_xattr_text(struct ff_node *n, const char *name_value, struct ff_err *err);
/* 0..15 for a hex digit, else -1. */
int ff_hex_digit(char c);

/* tokenize.c: one line of a spec, pseudo or sort file split into words.
 * Blanks separate words; "..." quotes; backslash escapes \\ \" \n \t \xHH
 * \NNN and, outside quotes, any other character.  A line whose first
 * non-blank character is '#' is a comment (n = 0). */
#define FF_MAX_TOKENS 32
struct ff_tokens {
	int n;
	char *v[FF_MAX_TOKENS];
	size_t start[FF_MAX_TOKENS]; /* where each word starts in the line */
	char *store;
};
int ff_tokenize(const char *line, struct ff_tokens *t, struct ff_err *err);
void ff_tokens_free(struct ff_tokens *t);


/* xattr_filter.c: -xattrs-exclude / -xattrs-include on every node. */
int ff_xattr_filter_apply(struct ff_tree *tree, struct ff_err *err);

#endif
