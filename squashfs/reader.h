/* Opening a SquashFS 4.0 image for reading.  The result implements the one
 * read interface of common/fs.h. */
#ifndef FF_SQUASHFS_READER_H
#define FF_SQUASHFS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/fs.h"

/* Non-zero when buf (the first bytes of an image) starts with a SquashFS
 * 4.0 superblock magic. */
int ff_squashfs_probe(const uint8_t *buf, size_t len);

/* Non-zero when buf holds a plausible SquashFS superblock for an image of
 * at most avail bytes: it decodes, and its tables lie in order inside
 * bytes_used, which fits in avail.  For finding an image inside a blob. */
int ff_squashfs_probe_super(const uint8_t *buf, size_t len, uint64_t avail);

int ff_squashfs_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		     struct ff_err *err);

#endif
