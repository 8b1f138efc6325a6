/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* A host directory seen through common/fs.h, read-only, so a program can
 * compare an image with the tree it was built from (flashfs diff) without
 * asking which side is which.  Handles are numbers given out as objects are
 * met by lookup and readdir; every name of a hard-linked file (same device
 * and inode) yields the same handle.  Nothing follows symlinks. */
#ifndef FF_IMAGE_DIR_FS_H
#define FF_IMAGE_DIR_FS_H

#include "common/error.h"
#include "common/fs.h"

int ff_dir_fs_open(const char *path, struct ff_fs **fs, struct ff_err *err);

#endif
