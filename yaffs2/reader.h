/* Opening a YAFFS2 image or raw NAND dump for reading: a full scan as the
 * kernel does it.  The result implements the read interface of common/fs.h. */
#ifndef FF_YAFFS2_READER_H
#define FF_YAFFS2_READER_H

#include "common/error.h"
#include "common/fs.h"

/* Non-zero when the file looks like a YAFFS2 image under the geometry in
 * opts (or any known geometry and layout where opts leaves them 0). */
int ff_yaffs2_probe(const char *path, const struct ff_open_opts *opts);

int ff_yaffs2_open(const char *path, const struct ff_open_opts *opts, struct ff_fs **fs,
		   struct ff_err *err);

#endif
