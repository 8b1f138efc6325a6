/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The NFS export table: the inode reference of every inode number, so the
 * kernel can find an inode from its number alone.  Gathered from the
 * per-node records once every inode is written, rather than kept by inode
 * number all along: 8 bytes an inode fewer while the file records are
 * still held.  Made in number order by walking the tree as the numbers
 * were given, its blocks streamed to the image: no array of every
 * inode's reference either (80 MB at ten million entries, the build's
 * peak, issue 33). */
#include "squashfs/export_table_writer.h"

#include <errno.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "squashfs/meta_writer.h"
#include "squashfs/table_writer.h"

struct export_walk {
	struct sqfs_meta_writer *mw;
	struct sqfs_node_info *info;
	uint32_t done;          /* inode numbers written so far */
};

static int put_ref(struct export_walk *x, const struct ff_node *n, struct ff_err *err)
{
	uint8_t e[8];

	/* a hard link's other names meet a number already written */
	if (sqfs_ino(n) != x->done + 1)
		return 0;
	ff_put_le64(e, sqfs_ni_ref(sqfs_info_of(x->info, n)));
	x->done++;
	return sqfs_meta_write(x->mw, e, sizeof(e), err);
}

/* In number order: the walk sqfs_inodes_number numbered them in. */
static int walk(struct export_walk *x, const struct ff_node *d, struct ff_err *err)
{
	for (uint32_t i = 0; i < d->n_children; i++) {
		const struct ff_node *c = d->children[i];

		if (put_ref(x, c, err) < 0 || (S_ISDIR(c->mode) && walk(x, c, err) < 0))
			return -1;
	}
	return 0;
}

int sqfs_export_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx,
			    const struct ff_tree *tree, struct sqfs_node_info *info,
			    uint32_t inode_count, uint64_t *pos, struct ff_err *err)
{
	struct export_walk x = { sqfs_table_begin(s, ctx, err), info, 0 };
	const struct ff_node *root = ff_tree_root(tree);

	if (!x.mw)
		return -1;
	if (walk(&x, root, err) < 0 || put_ref(&x, root, err) < 0 ||
	    (x.done != inode_count &&
	     ff_err_set(err, EINVAL, "export table: %u of %u inode numbers met", x.done,
			inode_count))) {
		sqfs_table_abort(x.mw);
		return -1;
	}
	return sqfs_table_end(s, x.mw, NULL, 0, pos, err);
}
