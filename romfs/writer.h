/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The writer's private parts: the entries as genromfs 0.5.2 places them
 * (writer_layout.c), each directory's order (writer_order.c), and the
 * byte stream (writer.c). */
#ifndef FF_ROMFS_WRITER_H
#define FF_ROMFS_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "romfs/romfs.h"
#include "tree/tree.h"

/* One file header to write, in the order written. */
struct rw_ent {
	const struct ff_node *node; /* the object (a directory for "." and "..") */
	char *name;                 /* owned */
	uint32_t name_len;
	uint32_t off;               /* header offset (after pad) */
	uint32_t pad;               /* zero bytes written before the header */
	uint32_t size;              /* regular files and symlinks */
	uint32_t mode;              /* type and permissions genromfs saw */
	uint32_t spec;              /* devices: major << 16 | minor */
	int64_t link;               /* hard link: the entry it names, else -1 */
	int64_t next;               /* next entry of its directory, else -1 */
	int64_t first;              /* directories: first entry, else -1 */
};

struct rw_layout {
	const struct ff_tree *tree;
	const struct ff_romfs_write_opts *o;
	char volume[256];
	struct rw_ent *v;
	size_t n, cap;
	uint64_t cur;               /* the next free offset */
	char path[4096];            /* "/dir/name" below the source, for patterns */
	struct ff_err *err;
};

/* Places every entry; lay->cur is then the full size. */
int rw_layout_build(struct rw_layout *lay);
void rw_layout_free(struct rw_layout *lay);

/* Items of a directory in the order to place them: a child's index in
 * dir->children, or RW_DOT / RW_DOTDOT where those entries go. */
#define RW_DOT (-1)
#define RW_DOTDOT (-2)
int rw_order(const struct ff_node *dir, int host, int dots, int64_t **items, size_t *n,
	     struct ff_err *err);

#endif
