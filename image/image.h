/* Open any image flashfs understands: SquashFS, YAFFS2 (image or NAND dump),
 * and YAFFS2 inside a .gz/.lzo/.xz/.zst container, which is decompressed to
 * an unlinked temporary file first.  Format detection lives here and only
 * here. */
#ifndef FF_IMAGE_IMAGE_H
#define FF_IMAGE_IMAGE_H

#include "common/error.h"
#include "common/fs.h"
#include "yaffs2/oob_layout.h"

int ff_image_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err);

enum ff_image_flash_kind { FF_IMAGE_FLASH_RAW, FF_IMAGE_FLASH_YAFFS2 };
/* What an image file is for flashing: raw when forced, SquashFS or UBI, else
 * YAFFS2 when the YAFFS2 detection finds a geometry and layout (filled in
 * *lay); -1 when it is neither. */
int ff_image_flash_kind(int fd, uint64_t size, int force_raw, struct ff_y2_layout *lay);

#endif
