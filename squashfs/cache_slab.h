/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Recycled, pre-faulted buffers of one size for a cache (cache_slab.c). */
#ifndef FF_SQUASHFS_CACHE_SLAB_H
#define FF_SQUASHFS_CACHE_SLAB_H

#include <stddef.h>

#include "squashfs/cache.h"

struct sqfs_slab;

/* Buffers of `slot` bytes of data, mapped `reserve` bytes at a time (the
 * most the cache will hold at once, with room to spare); NULL when out of
 * memory. */
struct sqfs_slab *sqfs_slab_new(size_t slot, size_t reserve);
/* A buffer (data, cap and home set; the rest is the caller's to set), or
 * NULL when out of memory. */
struct sqfs_cbuf *sqfs_slab_take(struct sqfs_slab *s);
/* Back on the free list, for the next take. */
void sqfs_slab_give(struct sqfs_slab *s, struct sqfs_cbuf *b);
/* Unmaps everything: every buffer taken must have been given back. */
void sqfs_slab_free(struct sqfs_slab *s);

#endif
