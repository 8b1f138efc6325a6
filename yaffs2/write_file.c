/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ff_y2_write_file: a YAFFS2 image streamed into an atomic output file,
 * through a stream container when one is named; shared by mkfs.yaffs2 and
 * libflashfs's ff_yaffs2_write. */
#include <errno.h>
#include <fcntl.h>

#include "common/outfile.h"
#include "compress/compress.h"
#include "yaffs2/writer.h"

/* Start writeback every few MiB so the disk works while the tree is still
 * being read; the final fsync then waits only for the tail instead of the
 * whole image.  A hint only: the fsync at commit reports any error. */
#define WRITEBACK_BYTES (8u << 20)

struct out {
	struct ff_outfile of;
	struct ff_cstream *cs;
	uint64_t queued; /* bytes handed to writeback so far */
};

static void start_writeback(struct out *o)
{
	uint64_t pending = o->of.size - o->queued;

	if (pending < WRITEBACK_BYTES)
		return;
	(void)sync_file_range(o->of.fd, (off_t)o->queued, (off_t)pending,
			      SYNC_FILE_RANGE_WRITE);
	o->queued = o->of.size;
}

static int sink(void *ctx, const void *buf, size_t len, struct ff_err *err)
{
	struct out *o = ctx;

	if (o->cs)
		return ff_cstream_write(o->cs, buf, len, err) < 0 ? -1 : 0;
	if (ff_outfile_write(&o->of, buf, len, err))
		return -1;
	start_writeback(o);
	return 0;
}

int ff_y2_write_file(const struct ff_tree *tree, struct ff_y2_write_opts *wo, const char *image,
		     const char *codec, struct ff_y2_write_stats *stats, struct ff_err *err)
{
	struct out o = { .cs = NULL, .queued = 0 };
	struct ff_cstream *cs;

	if (ff_outfile_open(&o.of, image, err))
		return -1;
	if (codec && !(o.cs = ff_cstream_new_writer(o.of.fd, codec, -1, err)))
		goto fail;
	wo->sink = sink;
	wo->sink_ctx = &o;
	if (ff_y2_write(tree, wo, stats, err))
		goto fail;
	if (wo->max_blocks && stats->blocks > wo->max_blocks) {
		uint64_t over = stats->blocks - wo->max_blocks;

		ff_err_set(err, EFBIG, "the image needs %llu erase blocks, the chip has %llu: "
			   "%llu blocks (%llu KiB of pages) too many",
			   (unsigned long long)stats->blocks, (unsigned long long)wo->max_blocks,
			   (unsigned long long)over, (unsigned long long)(over *
			   wo->layout.geom.pages_per_block * wo->layout.geom.page_size >> 10));
		goto fail;
	}
	cs = o.cs;
	o.cs = NULL;
	if (cs && ff_cstream_close(cs, err))
		goto fail;
	return ff_outfile_commit(&o.of, err);
fail:
	if (o.cs)
		ff_cstream_close(o.cs, NULL);
	ff_outfile_abort(&o.of);
	return -1;
}
