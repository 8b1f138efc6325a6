/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The size of what an open file descriptor names: st_size for a regular
 * file, the device's size for a block device (where st_size is 0), so a
 * reader opens /dev/sdb1 or /dev/loop0 as it opens an image file. */
#ifndef FF_COMMON_FD_SIZE_H
#define FF_COMMON_FD_SIZE_H

#include <stdint.h>

/* Returns 0 and *size, or a negative errno. */
int ff_fd_size(int fd, uint64_t *size);

#endif
