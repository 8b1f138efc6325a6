/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: the library's version.
 *
 * The shared library's soname carries the major number
 * (libflashfs.so.FF_VERSION_MAJOR); its symbols carry the version node of
 * libflashfs.map (FLASHFS_0.1 for this API).  The Makefile reads
 * FF_VERSION_STRING from this file, so it is set in one place. */
#ifndef FLASHFS_VERSION_H
#define FLASHFS_VERSION_H

#include <flashfs/error.h>

#define FF_VERSION_MAJOR 0
#define FF_VERSION_MINOR 3
#define FF_VERSION_PATCH 0
#define FF_VERSION_STRING "0.3.0"

/* The version of the library actually loaded, "MAJOR.MINOR.PATCH"; compare
 * it with FF_VERSION_STRING to see what the program was built against. */
FF_API const char *ff_version(void);

#endif
