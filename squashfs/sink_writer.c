/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Everything the writer emits goes through one sink, so a dry run (no
 * output file) follows exactly the same path and reports the same sizes.
 *
 * Writeback of the image is started in the background every few MiB, so
 * the fsync that commits the image finds little left to write instead of
 * stalling at the end for the whole image. */
#include "squashfs/sink.h"

#include <fcntl.h>

#define WRITEBACK_CHUNK (1u << 20)

/* Called after each write: when it completed a chunk, start that chunk's
 * writeback.  Data writes are one block, so they complete at most one
 * chunk; a larger table write hints only its last, the fsync does the rest. */
static void start_writeback(const struct sqfs_sink *s, uint64_t before)
{
	uint64_t end = s->of->size / WRITEBACK_CHUNK * WRITEBACK_CHUNK;

	if (end <= before || end < WRITEBACK_CHUNK)
		return;
	/* Only a hint: a failure here is found again by the fsync. */
	(void)sync_file_range(s->of->fd, (off_t)(end - WRITEBACK_CHUNK), WRITEBACK_CHUNK,
			      SYNC_FILE_RANGE_WRITE);
}

int sqfs_sink_write(struct sqfs_sink *s, const void *buf, size_t len, struct ff_err *err)
{
	if (s->of) {
		uint64_t before = s->of->size;

		if (ff_outfile_write(s->of, buf, len, err) < 0)
			return -1;
		start_writeback(s, before);
	}
	s->pos += len;
	return 0;
}
