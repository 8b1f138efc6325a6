/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The file tree made from a scan's records, as the kernel's mount builds
 * it (build.c, readinode.c, nodelist.c as facts): per inode the newest
 * node gives the metadata and the fragment map the data; per directory
 * and name the newest dirent wins and one with ino 0 deletes the name;
 * per xattr id the newest datum, per inode and id the newest xref. */
#ifndef FF_JFFS2_TREE_H
#define FF_JFFS2_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "jffs2/frag.h"
#include "jffs2/scan.h"

struct j2_child {
	const char *name;     /* in the dirent record */
	uint32_t len;
	uint32_t ino;
	uint32_t mode;        /* the child's type and permissions */
};

struct j2_xattr_ref {
	uint32_t datum;       /* index into scan.xattrs */
	uint32_t xseqno;
};

struct j2_ino {
	uint32_t ino;
	const struct j2_inode_rec *meta; /* newest node; NULL: none (a faked directory) */
	uint32_t first, n_recs;          /* its nodes in scan.inodes */
	uint32_t mode, uid, gid;
	int64_t atime, mtime, ctime;
	uint64_t size;
	uint32_t nlink;
	uint32_t parent;                 /* a directory's one parent (0: none yet) */
	int reachable;
	int named;                       /* some dirent, of any version, named it */
	struct j2_frag *frags;
	size_t n_frags;
	struct j2_child *children;       /* sorted by name bytes */
	size_t n_children;
	struct j2_xattr_ref *xattrs;
	size_t n_xattrs;
	uint64_t stored;                 /* bytes of its nodes on flash */
	uint32_t isize_cut;              /* isize its data falls short of (0: none) */
};

struct j2_tree {
	struct j2_ino *inos;             /* sorted by ino */
	size_t n;
	uint64_t files, dirs, symlinks, devices, fifos, sockets, hardlinks, unreachable, deleted;
	uint64_t xattr_names;
};

/* Builds the tree; sorts the scan's record arrays (their order is the
 * tree's).  Problems go to s->prob.  0, or -1 when out of memory. */
int j2_tree_build(struct j2_scan *s, struct j2_tree *t);
void j2_tree_free(struct j2_tree *t);
struct j2_ino *j2_tree_find(const struct j2_tree *t, uint64_t ino);

#endif
