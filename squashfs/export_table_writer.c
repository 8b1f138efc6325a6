/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The NFS export table: the inode reference of every inode number, so the
 * kernel can find an inode from its number alone.  Gathered from the
 * per-node records once every inode is written, rather than kept by inode
 * number all along: 8 bytes an inode fewer while the file records are
 * still held. */
#include "squashfs/export_table_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "squashfs/table_writer.h"

int sqfs_export_table_write(struct sqfs_sink *s, struct ff_comp_ctx *ctx,
			    const struct ff_tree *tree, struct sqfs_node_info *info,
			    uint32_t inode_count, uint64_t *pos, struct ff_err *err)
{
	size_t len = (size_t)inode_count * 8;
	uint8_t *buf = malloc(len + 1);
	int ret;

	if (!buf)
		return ff_err_set(err, ENOMEM, "export table: out of memory");
	memset(buf, 0, len);
	/* every name of a hard-link group gives the same number and ref */
	for (const struct ff_node *n = ff_tree_root(tree); n; n = ff_tree_next(tree, n)) {
		const struct sqfs_node_info *in = sqfs_info_of(info, n);

		uint32_t ino = sqfs_ino(n);

		if (ino >= 1 && ino <= inode_count)
			ff_put_le64(buf + 8 * (ino - 1), sqfs_ni_ref(in));
	}
	ret = sqfs_table_write(s, ctx, buf, len, NULL, 0, pos, err);
	free(buf);
	return ret;
}
