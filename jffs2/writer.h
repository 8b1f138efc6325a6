/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Writing a JFFS2 image from a finished source tree (tree/tree.h), node
 * for node as mtd-utils' mkfs.jffs2 writes the same tree with the same
 * options, and with `summary` as its image run through sumtool.
 *
 * mkfs.jffs2's order: a directory's own entries (each a dirent, then its
 * inode node or nodes, then its xattr refs), then the subdirectories that
 * have entries, recursively; the root has no inode node (ino 1).  Inode
 * numbers and dirent versions count up in that order; the first name of a
 * hard-linked file met in that order carries its inode.  File data goes
 * in page_size pieces, each compressed by the first compressor that
 * shrinks it (or the smallest, by mode), cut where an erase block ends. */
#ifndef FF_JFFS2_WRITER_H
#define FF_JFFS2_WRITER_H

#include <stdint.h>

#include "common/error.h"
#include "common/warn.h"
#include "tree/tree.h"

/* mkfs.jffs2's compressors, by index, and its modes (-m). */
enum { FF_J2C_ZLIB, FF_J2C_RTIME, FF_J2C_LZO, FF_J2C_COUNT };
enum { FF_J2M_NONE, FF_J2M_PRIORITY, FF_J2M_SIZE, FF_J2M_FAVOURLZO };

/* The compressor list: tried in `order` (highest priority first; among
 * equal priorities, the one placed there first). */
struct ff_jffs2_compr {
	int mode;
	int prio[FF_J2C_COUNT];
	uint8_t disabled[FF_J2C_COUNT];
	uint8_t order[FF_J2C_COUNT];
};

/* mkfs.jffs2's defaults: priority mode; lzo 80 (disabled), zlib 60,
 * rtime 50. */
void ff_jffs2_compr_init(struct ff_jffs2_compr *c);
/* By name ("zlib", "rtime", "lzo"; modes "none", "priority", "size",
 * "favourlzo"): 0, or -1 with err naming the unknown word. */
int ff_jffs2_compr_enable(struct ff_jffs2_compr *c, const char *name, int on,
			  struct ff_err *err);
int ff_jffs2_compr_priority(struct ff_jffs2_compr *c, const char *name, int prio,
			    struct ff_err *err);
int ff_jffs2_compr_mode(struct ff_jffs2_compr *c, const char *name, struct ff_err *err);

/* Extended-attribute name spaces (bits by JFFS2's xprefix ids). */
#define FF_J2X_USER (1u << 1)
#define FF_J2X_SECURITY (1u << 2)
#define FF_J2X_ACL (3u << 3)
#define FF_J2X_TRUSTED (1u << 5)

struct ff_jffs2_write_opts {
	int big_endian;
	uint32_t erase_size;       /* at least 8 KiB */
	uint32_t page_size;        /* data node size (target page), >= 1 */
	int64_t pad;               /* 0 none, -1 to the erase block's end, else bytes */
	int cleanmarkers;
	uint32_t cleanmarker_size; /* 12 .. erase_size - 1 */
	int squash_perms;          /* -P: no group/other write, no setuid/setgid */
	unsigned xattrs;           /* FF_J2X_* name spaces to store */
	int summary;               /* sumtool's erase-block summaries */
	unsigned threads;          /* compressing threads (output never depends on it) */
	struct ff_jffs2_compr compr;
	ff_warn_fn warn;
	void *warn_ctx;
};

struct ff_jffs2_write_stats {
	uint64_t bytes;            /* the image */
	uint32_t inodes;           /* inode numbers given, the root's included */
	uint64_t data_nodes, compressed_nodes;
	uint64_t data_in, data_out; /* file bytes, and their stored bytes */
	unsigned warnings;
};

void ff_jffs2_write_opts_init(struct ff_jffs2_write_opts *o);

/* Writes the image to path atomically (nothing left on failure); path
 * NULL writes it to out_fd once complete. */
int ff_jffs2_write(const struct ff_tree *tree, const struct ff_jffs2_write_opts *o,
		   const char *path, int out_fd, struct ff_jffs2_write_stats *st,
		   struct ff_err *err);

#endif
