/* How big an image is, whatever holds it: a regular file's st_size, or a
 * block device's size (BLKGETSIZE64; fstat says 0 for a block device, so an
 * SD card partition or a loop device looked empty).  Every reader sizes its
 * image here. */
#ifndef FF_COMMON_FILE_SIZE_H
#define FF_COMMON_FILE_SIZE_H

#include <stdint.h>

#include "common/error.h"

/* Size of the open file fd (named path in messages).  Anything other than a
 * regular file or block device is an error naming path and what it is. */
int ff_file_size(int fd, const char *path, uint64_t *size, struct ff_err *err);

#endif
