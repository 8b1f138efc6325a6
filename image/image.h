/* Open any image flashfs understands: SquashFS, YAFFS2 (image or NAND dump),
 * and YAFFS2 inside a .gz/.lzo/.xz/.zst container, which is decompressed to
 * an unlinked temporary file first.  Format detection lives here and only
 * here.  With opts->directories, a directory opens as a read-only view of
 * the host tree (image/dir_fs.h). */
#ifndef FF_IMAGE_IMAGE_H
#define FF_IMAGE_IMAGE_H

#include <errno.h>

#include "common/error.h"
#include "common/fs.h"
#include "yaffs2/oob_layout.h"

int ff_image_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		  struct ff_err *err);

/* ff_image_open's error code when it recognises nothing at the offset. */
#define FF_IMAGE_UNKNOWN EMEDIUMTYPE

/* Looks for an image further into the file than offset 0, after
 * ff_image_open found none there (a firmware blob with a header, a disk
 * image with a partition table): a plausible SquashFS superblock or a
 * YAFFS2 image starting at a multiple of FF_IMAGE_SCAN_STEP within the
 * first FF_IMAGE_SCAN_BYTES.  Returns what was found ("a SquashFS
 * superblock", "a YAFFS2 image") with its offset in *found, or NULL. */
#define FF_IMAGE_SCAN_STEP 512u
#define FF_IMAGE_SCAN_BYTES (64ull << 20)
const char *ff_image_locate(const char *path, const struct ff_open_opts *opts, uint64_t *found);

enum ff_image_flash_kind { FF_IMAGE_FLASH_RAW, FF_IMAGE_FLASH_YAFFS2 };
/* What an image file is for flashing: raw when forced, SquashFS or UBI, else
 * YAFFS2 when the YAFFS2 detection finds a geometry and layout (filled in
 * *lay); -1 when it is neither. */
int ff_image_flash_kind(int fd, uint64_t size, int force_raw, struct ff_y2_layout *lay);

#endif
