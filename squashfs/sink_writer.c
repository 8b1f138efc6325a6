/* Everything the writer emits goes through one sink, so a dry run (no
 * output file) follows exactly the same path and reports the same sizes. */
#include "squashfs/writer_priv.h"

int sqfs_sink_write(struct sqfs_sink *s, const void *buf, size_t len, struct ff_err *err)
{
	if (s->of && ff_outfile_write(s->of, buf, len, err) < 0)
		return -1;
	s->pos += len;
	return 0;
}
