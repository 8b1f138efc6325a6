/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The readers' caches allocate and free decoded blocks of 128 KiB to 1 MiB
 * all the time, from several threads.  glibc hands allocations of that size
 * to mmap and trims freed arena tops back to the kernel, so a minbase
 * extract made about 350 mmap/munmap pairs: each munmap interrupts the other
 * CPUs to flush their TLBs, and each new mapping is faulted in and zeroed
 * again.  Keeping such blocks on the heap took the lz4 extract from 0.15 s
 * to 0.12 s.  Memory stays bounded by the cache budget, which is what the
 * blocks live in. */
#include "common/malloc_tune.h"

#include <malloc.h>

#define BLOCKS_ON_HEAP (8 << 20)     /* above the largest block (1 MiB) */
#define KEEP_FREED_TOP (512 << 20)   /* what an arena may keep unreturned */
#define ARRAYS_MAPPED (128 << 10)    /* glibc's own starting threshold */

void ff_malloc_tune_for_blocks(void)
{
	(void)mallopt(M_MMAP_THRESHOLD, BLOCKS_ON_HEAP);
	(void)mallopt(M_TRIM_THRESHOLD, KEEP_FREED_TOP);
}

/* A builder's arrays with one record per node (the tar reader's map, the
 * writer's file list, dedup set and per-node records) are megabytes each,
 * made and freed phase by phase.  Each mapped block freed raises glibc's
 * mmap threshold to its size (up to 32 MiB); the arrays after it then come
 * from the heap, where one freed in its middle stays resident while the
 * next phase's are made.  A million tar members peaked at 199 MiB that way
 * and at 175 MiB with the threshold held at its starting 128 KiB (issue 33;
 * 256 KiB, the tree's node slabs then on the heap, gave 183 MiB).  Setting
 * it stops the raising.  A tail of 128 KiB or more (blocks above 128 KiB)
 * is then one mapping each, a small cost beside its read. */
void ff_malloc_tune_for_trees(void)
{
	(void)mallopt(M_MMAP_THRESHOLD, ARRAYS_MAPPED);
}
