/* The fragment table: where each fragment block starts and its on-disk
 * size (with the uncompressed bit). */
#include "squashfs/writer_priv.h"

#include <errno.h>
#include <stdlib.h>

int sqfs_fragment_table_write(struct sqfs_writer *w, uint64_t *pos, struct ff_err *err)
{
	size_t len = (size_t)w->frags.count * SQFS_FRAGMENT_ENTRY_SIZE;
	uint8_t *buf;
	uint64_t start = w->sink.pos;
	int ret;

	/* With no fragments mksquashfs writes no table but still points the
	 * superblock at where it would start (the kernel reads nothing when
	 * the count is 0); so do we, for byte-identical images. */
	*pos = start;
	if (!w->frags.count)
		return 0;
	buf = malloc(len);
	if (!buf)
		return ff_err_set(err, ENOMEM, "fragment table: out of memory");
	for (uint32_t i = 0; i < w->frags.count; i++)
		sqfs_fragment_entry_encode(&w->frags.entries[i],
					   buf + (size_t)i * SQFS_FRAGMENT_ENTRY_SIZE);
	ret = sqfs_table_write(&w->sink, sqfs_meta_ctx(w, w->o->raw_fragments), buf, len, NULL,
			       0, pos, err);
	w->st->fragment_table_bytes = w->sink.pos - start;
	free(buf);
	return ret;
}
