/* The NFS export table: the inode reference of every inode number, so the
 * kernel can find an inode from its number alone. */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>

#include "common/endian.h"

int sqfs_export_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err)
{
	size_t len = (size_t)w->inode_count * 8;
	uint8_t *buf = malloc(len + 1);
	uint64_t start = w->sink.pos;
	int ret;

	if (!buf)
		return ff_err_set(err, ENOMEM, "export table: out of memory");
	for (uint32_t i = 0; i < w->inode_count; i++)
		ff_put_le64(buf + 8 * i, w->export_refs[i]);
	ret = sqfs_table_write(&w->sink, sqfs_meta_ctx(w, w->o->raw_inodes), buf, len, NULL, 0,
			       pos, err);
	w->st->export_table_bytes = w->sink.pos - start;
	free(buf);
	return ret;
}
