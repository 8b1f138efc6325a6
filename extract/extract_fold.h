/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Names in one directory that become the same name on a case-insensitive
 * target (vfat, exFAT, NTFS and SMB shares, macOS, ext4/f2fs casefold
 * directories).  Folding is per code point, towlower(towupper(c)) from the
 * C library's C.UTF-8 locale (Unicode simple case mappings, so "É"/"é" and
 * "K"/KELVIN SIGN collide); bytes that are not valid UTF-8 stay distinct.
 * Without a C.UTF-8 locale only ASCII letters are folded.  Not Unicode
 * normalisation: "é" precomposed and "e" + combining accent stay apart. */
#ifndef FF_EXTRACT_EXTRACT_FOLD_H
#define FF_EXTRACT_EXTRACT_FOLD_H

#include <stddef.h>
#include <stdint.h>

#define FF_FOLD_NONE SIZE_MAX

struct ff_fold;

/* NULL when out of memory. */
struct ff_fold *ff_fold_new(void);
void ff_fold_free(struct ff_fold *f);

/* For each of the n names sets first[i] to the index of the earliest name
 * before it that folds to the same string, or FF_FOLD_NONE.  Expected time
 * O(total length).  Returns 0, or -1 when out of memory (first[] is then
 * all FF_FOLD_NONE).  Thread-safe for distinct calls. */
int ff_fold_collisions(const struct ff_fold *f, char *const *names, size_t n, size_t *first);

/* Non-zero when names in the directory open as dirfd may be compared
 * ignoring case: vfat, exFAT, NTFS, SMB/CIFS, HFS, an ext4/f2fs casefold
 * directory, or a FUSE or network file system, which cannot be told. */
int ff_fold_target(int dirfd);

#endif
