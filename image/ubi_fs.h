/* A file system found inside a UBI volume: every operation goes to the
 * volume's own reader; `info` adds the UBI geometry and volume list, and
 * `check` the UBI scan's problems (each naming its PEB). */
#ifndef FF_IMAGE_UBI_FS_H
#define FF_IMAGE_UBI_FS_H

#include <stddef.h>

#include "common/error.h"
#include "common/fs.h"
#include "ubi/reader.h"

/* Takes ownership of inner and img (closed with the result). */
struct ff_fs *ff_ubi_fs_wrap(struct ff_fs *inner, struct ff_ubi_image *img, size_t vol,
			     struct ff_err *err);

#endif
