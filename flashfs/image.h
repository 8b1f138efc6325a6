/* Open any image flashfs understands: SquashFS, YAFFS2 (image or NAND dump),
 * and YAFFS2 inside a .gz/.lzo/.xz/.zst container, which is decompressed to
 * an unlinked temporary file first.  Format detection lives here and only
 * here. */
#ifndef FF_FLASHFS_IMAGE_H
#define FF_FLASHFS_IMAGE_H

#include "common/error.h"
#include "common/fs.h"

int ff_image_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err);

#endif
