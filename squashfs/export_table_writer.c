/* The NFS export table: the inode reference of every inode number, so the
 * kernel can find an inode from its number alone.  Gathered from the
 * per-node records once every inode is written, rather than kept by inode
 * number all along: 8 bytes an inode fewer while the file records are
 * still held. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"

int sqfs_export_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err)
{
	size_t len = (size_t)w->inode_count * 8;
	uint8_t *buf = malloc(len + 1);
	uint64_t start = w->sink.pos;
	int ret;

	if (!buf)
		return ff_err_set(err, ENOMEM, "export table: out of memory");
	memset(buf, 0, len);
	/* every name of a hard-link group gives the same number and ref */
	for (const struct ff_node *n = ff_tree_root(w->tree); n; n = ff_tree_next(w->tree, n)) {
		const struct sqfs_node_info *info = sqfs_info(w, n);

		if (info->ino >= 1 && info->ino <= w->inode_count)
			ff_put_le64(buf + 8 * (info->ino - 1), info->ref);
	}
	ret = sqfs_table_write(&w->sink, sqfs_meta_ctx(w, w->o->raw_inodes), buf, len, NULL, 0,
			       pos, err);
	w->st->export_table_bytes = w->sink.pos - start;
	free(buf);
	return ret;
}
