/* Opening a YAFFS2 image or raw NAND dump for reading: a full scan as the
 * kernel does it.  The result implements the read interface of common/fs.h. */
#ifndef FF_YAFFS2_READER_H
#define FF_YAFFS2_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/fs.h"

/* What ff_open_opts.yaffs2 points to: geometry a caller knows, so that
 * detection tries only that. */
struct ff_yaffs2_opts {
	uint32_t page_size, oob_size, pages_per_block; /* 0 = detect */
	const char *oob_layout; /* "linux", "offset0", "inband"; NULL = detect */
	const char *tags;       /* "kernel", "classic"; NULL = either */
	int big_endian;         /* -1 detect, 0 little, 1 big */
};

/* Non-zero when the file looks like a YAFFS2 image under the geometry in
 * opts (or any known geometry and layout where opts leaves them 0). */
int ff_yaffs2_probe(const char *path, const struct ff_open_opts *opts);

/* 1 when a YAFFS2 image starts at byte off of the open file fd (size
 * bytes), 0 when not.  buf holds len bytes from off, which must decode as
 * an object header before the geometry detection is tried there (-1 when
 * they do not, and nothing more was read). */
int ff_yaffs2_probe_at(int fd, uint64_t off, uint64_t size, const uint8_t *buf, size_t len,
		       const struct ff_open_opts *opts);

int ff_yaffs2_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		   struct ff_err *err);

#endif
